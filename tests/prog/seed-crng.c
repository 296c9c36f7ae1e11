// SPDX-License-Identifier: GPL-2.0
/*
 * Seed the guest kernel's random number generator with fixed bytes and
 * credit them, as a real machine's boot seeds it from hardware or the
 * boot loader. A TCG guest has neither (the bench boots with
 * random.trust_cpu=off), and until the generator is seeded every
 * get_random_u32() makes a ChaCha block of its own: thousands of
 * instructions on each inode creation that sets i_generation, on tmpfs
 * and ours alike, which a seeded kernel never pays. Fixed bytes keep the
 * guest deterministic; the guest protects nothing.
 *
 *   seed-crng        run by qemu/init before anything else
 */
#include <fcntl.h>
#include <linux/random.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define SEED_BYTES 64

int main(void)
{
	static union {
		struct rand_pool_info info;
		unsigned char raw[sizeof(struct rand_pool_info) + SEED_BYTES];
	} seed;
	unsigned char *bytes = (unsigned char *)seed.info.buf;
	int fd, i;

	seed.info.entropy_count = SEED_BYTES * 8;
	seed.info.buf_size = SEED_BYTES;
	for (i = 0; i < SEED_BYTES; i++)
		bytes[i] = (unsigned char)(i * 37 + 11);

	fd = open("/dev/urandom", O_WRONLY);
	if (fd < 0 || ioctl(fd, RNDADDENTROPY, &seed.info) < 0) {
		perror("seed-crng: RNDADDENTROPY");
		return 1;
	}
	close(fd);
	return 0;
}
