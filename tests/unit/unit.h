/*
 * unit.h - a minimal harness for lib/ unit tests: CHECK() records a
 * failure with its location and keeps going; unit_finish() prints a
 * summary and gives the exit status for automake (0 pass, 1 fail).
 */
#ifndef UNIT_H
#define UNIT_H

#include <stdio.h>
#include <inttypes.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond) do { \
	unit_checks++; \
	if (!(cond)) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ_U64(a, b) do { \
	uint64_t unit_a_ = (uint64_t)(a), unit_b_ = (uint64_t)(b); \
	unit_checks++; \
	if (unit_a_ != unit_b_) { \
		unit_failures++; \
		fprintf(stderr, "%s:%d: %s == %" PRIu64 " (0x%" PRIx64 "), expected %s == %" PRIu64 " (0x%" PRIx64 ")\n", \
			__FILE__, __LINE__, #a, unit_a_, unit_a_, #b, unit_b_, unit_b_); \
	} \
} while (0)

static inline int unit_finish(const char *name)
{
	printf("%s: %d checks, %d failed\n", name, unit_checks, unit_failures);
	return unit_failures ? 1 : 0;
}

#endif
