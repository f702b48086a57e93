# tests/inject: tests of inject.f2fs
