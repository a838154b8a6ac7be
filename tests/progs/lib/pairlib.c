/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The race of examples/pairstore, inside a shared library: a value and its
 * check word (the negated value) stored without a lock, one instruction
 * apart. Built as a release library is: -O2, no debug info.
 */
static volatile long value, check;	/* check == -value between stores */

__attribute__((noinline)) void pair_publish(long v)
{
	value = v;
	check = -v;	/* the window: between this store and the one above */
}

/* 1 if the pair read now is torn; *v and *c: what was read. */
__attribute__((noinline)) int pair_torn(long *v, long *c)
{
	*v = value;
	*c = check;
	return *v != -*c;
}
