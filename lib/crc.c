/*
 * crc.c - the reflected CRC-32 (polynomial 0xEDB88320) that F2FS uses for
 * its superblock, checkpoint and inode checksums.
 *
 * The byte table is a constant built by the compiler: a reflected CRC is
 * linear over XOR, so the entry for byte n is the XOR of the entries for
 * the bits set in n.  The eight single-bit entries below are the CRC of
 * the bytes 0x01, 0x02, ... 0x80 (the last one is the polynomial itself).
 */
#include "f2fs_crc.h"
#include "f2fs_fs.h"

#define CRC_BIT0 0x77073096u
#define CRC_BIT1 0xEE0E612Cu
#define CRC_BIT2 0x076DC419u
#define CRC_BIT3 0x0EDB8832u
#define CRC_BIT4 0x1DB71064u
#define CRC_BIT5 0x3B6E20C8u
#define CRC_BIT6 0x76DC4190u
#define CRC_BIT7 0xEDB88320u

/* Each level doubles the list: entries for index x, then for x | 1 << k. */
#define CRC_L0(x) (x)
#define CRC_L1(x) CRC_L0(x), CRC_L0((x) ^ CRC_BIT0)
#define CRC_L2(x) CRC_L1(x), CRC_L1((x) ^ CRC_BIT1)
#define CRC_L3(x) CRC_L2(x), CRC_L2((x) ^ CRC_BIT2)
#define CRC_L4(x) CRC_L3(x), CRC_L3((x) ^ CRC_BIT3)
#define CRC_L5(x) CRC_L4(x), CRC_L4((x) ^ CRC_BIT4)
#define CRC_L6(x) CRC_L5(x), CRC_L5((x) ^ CRC_BIT5)
#define CRC_L7(x) CRC_L6(x), CRC_L6((x) ^ CRC_BIT6)
#define CRC_L8(x) CRC_L7(x), CRC_L7((x) ^ CRC_BIT7)

static const uint32_t crc32_table[256] = { CRC_L8(0u) };

uint32_t f2fs_crc32_le(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--)
		crc = (crc >> 8) ^ crc32_table[(crc ^ *p++) & 0xFF];
	return crc;
}

uint32_t f2fs_crc32(const void *buf, size_t len)
{
	return f2fs_crc32_le(F2FS_SUPER_MAGIC, buf, len);
}
