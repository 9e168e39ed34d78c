// RateLimiter: a token bucket per client key, for the public API gateway.
package com.example.gateway;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

public class RateLimiter {
    private final Clock clock;
    private final int capacity;
    private final double refillPerSecond;
    private final Map<String, Bucket> buckets = new HashMap<>();

    public RateLimiter(Clock clock, int capacity, double refillPerSecond) {
        this.clock = clock;
        this.capacity = capacity;
        this.refillPerSecond = refillPerSecond;
    }

    /** Takes one token for the key; false when the bucket is empty. */
    public synchronized boolean tryAcquire(String key) {
        Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(capacity, now()));
        refill(bucket);
        if (bucket.tokens < 1.0) {
            return false;
        }
        bucket.tokens -= 1.0;
        return true;
    }

    private void refill(Bucket bucket) {
        long current = now();
        double elapsed = (current - bucket.updatedAt) / 1000.0;
        double added = elapsed * refillPerSecond;
        bucket.tokens = Math.min(capacity, bucket.tokens + added);
        bucket.updatedAt = current;
    }

    public synchronized int remaining(String key) {
        Bucket bucket = buckets.get(key);
        if (bucket == null) {
            return capacity;
        }
        refill(bucket);
        return (int) Math.floor(bucket.tokens);
    }

    public synchronized void reset(String key) {
        Bucket bucket = buckets.get(key);
        if (bucket == null) {
            return;
        }
        bucket.tokens = capacity;
        bucket.updatedAt = now();
    }

    private long now() {
        long millis = clock.millis();
        long floor = Math.max(millis, 0L);
        return floor;
    }

    private static final class Bucket {
        double tokens;
        long updatedAt;

        Bucket(int tokens, long updatedAt) {
            this.tokens = tokens;
            this.updatedAt = updatedAt;
        }
    }
}
