// SPDX-License-Identifier: GPL-2.0
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The seed's demo, in Java: a producer thread puts items that expire on a queue, a consumer
 * thread takes and processes them. The code assumes the consumer always reaches an item within
 * its time to live (it is woken the moment the item is queued, and the machine is idle). A
 * consumer held back for longer processes an expired item: that throws, and the program exits
 * with status 1. Think of a lease, a token or a deadline handed between threads.
 *
 * <p>Threads are named "producer" and "consumer", so their names are also their Linux thread
 * names (what scx_fuzz --comm and --exclude-comm see).
 *
 * <p>First WARMUP items that never expire go through as fast as they can, so the JIT compiles the
 * hand-off before the timed items (under an emulator a first pass through new code is slow); the
 * timed items start once the consumer has caught up and the compiler threads are done (a second).
 *
 * <p>usage: java -jar expiry.jar [ITEMS [TTL_MS [PERIOD_MS [WARMUP]]]]
 * (default 200 items, 20 ms, 5 ms, 5000 warm-up items). Exit status: 0 if every item was
 * processed in time (the slowest hand-off is printed), 1 on an expired item, 2 on bad usage.
 */
public final class Expiry {
    /** An item handed from the producer to the consumer at queuedNs, valid until expiresNs. */
    private record Item(long seq, long queuedNs, long expiresNs) {
        /** Processes it; returns how long it waited since it was queued, in ns. */
        long process() {
            long now = System.nanoTime();
            if (now - expiresNs > 0) {
                throw new IllegalStateException(String.format(
                        "Item is invalid! item %d processed %.1f ms after it expired", seq, (now - expiresNs) / 1e6));
            }
            return now - queuedNs;
        }
    }

    private static long slowestNs;	/* the consumer's longest wait for an item, timed items only */

    /** Pause between warm-up and timed items, for the compiler threads to finish their work. */
    private static final long SETTLE_MS = 1000;

    /** Tells the consumer the producer is done. */
    private static final Item END = new Item(-1, 0, Long.MAX_VALUE);

    public static void main(String[] args) throws InterruptedException {
        int items, warmup;
        long ttlMs, periodMs;
        try {
            items = args.length > 0 ? Integer.parseInt(args[0]) : 200;
            ttlMs = args.length > 1 ? Long.parseLong(args[1]) : 20;
            periodMs = args.length > 2 ? Long.parseLong(args[2]) : 5;
            warmup = args.length > 3 ? Integer.parseInt(args[3]) : 5000;
        } catch (NumberFormatException e) {
            System.err.println("usage: java -jar expiry.jar [ITEMS [TTL_MS [PERIOD_MS [WARMUP]]]]");
            System.exit(2);
            return;
        }
        BlockingQueue<Item> queue = new LinkedBlockingQueue<>();
        Thread consumer = new Thread(() -> {
            try {
                for (Item item = queue.take(); item != END; item = queue.take()) {
                    long waitedNs = item.process();
                    if (item.seq() >= 0 && waitedNs > slowestNs) {
                        slowestNs = waitedNs;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "consumer");
        Thread producer = new Thread(() -> {
            try {
                for (int i = -warmup; i < 0; i++) {
                    queue.put(new Item(i, System.nanoTime(), Long.MAX_VALUE));
                }
                while (!queue.isEmpty()) {	/* the timed items must not queue behind these */
                    Thread.sleep(1);
                }
                Thread.sleep(SETTLE_MS);
                for (int i = 0; i < items; i++) {
                    long now = System.nanoTime();
                    queue.put(new Item(i, now, now + ttlMs * 1_000_000L));
                    Thread.sleep(periodMs);
                }
                queue.put(END);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "producer");
        consumer.setUncaughtExceptionHandler((thread, e) -> {
            System.err.println(e.getMessage());
            System.exit(1);
        });
        consumer.start();
        producer.start();
        producer.join();
        consumer.join();
        System.out.printf("processed %d items in time (ttl %d ms, slowest hand-off %.1f ms)%n",
                items, ttlMs, slowestNs / 1e6);
    }
}
