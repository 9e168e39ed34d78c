// Package ratelimit implements a token-bucket limiter and HTTP middleware.
package ratelimit

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"
)

// Errors returned by the limiter.
var (
	ErrClosed   = fmt.Errorf("ratelimit: limiter closed")
	ErrExceeded = fmt.Errorf("ratelimit: rate exceeded")
)

const defaultBurst = 10

// Clock abstracts time for tests.
type Clock interface {
	Now() time.Time
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

type (
	// Key identifies a client.
	Key string

	// Option configures a Limiter.
	Option func(*Limiter)
)

// Bucket holds the tokens of one client.
type Bucket struct {
	tokens float64
	last   time.Time
}

// Limiter hands out tokens per key.
type Limiter struct {
	mu      sync.Mutex
	rate    float64
	burst   int
	clock   Clock
	buckets map[Key]*Bucket
	closed  bool
}

// Cache is a generic map guarded by a mutex.
type Cache[K comparable, V any] struct {
	mu    sync.RWMutex
	items map[K]V
}

// Get returns the value for k.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.items[k]
	return v, ok
}

// WithBurst sets the bucket size.
func WithBurst(n int) Option {
	return func(l *Limiter) {
		l.burst = n
	}
}

// New returns a limiter allowing rate tokens per second.
func New(rate float64, opts ...Option) *Limiter {
	l := &Limiter{
		rate:    rate,
		burst:   defaultBurst,
		clock:   realClock{},
		buckets: make(map[Key]*Bucket),
	}
	for _, opt := range opts {
		opt(l)
	}
	return l
}

// Allow reports whether key may proceed now.
func (l *Limiter) Allow(key Key) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return false
	}
	now := l.clock.Now()
	b, ok := l.buckets[key]
	if !ok {
		b = &Bucket{tokens: float64(l.burst), last: now}
		l.buckets[key] = b
	}
	b.tokens += now.Sub(b.last).Seconds() * l.rate
	if b.tokens > float64(l.burst) {
		b.tokens = float64(l.burst)
	}
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// Wait blocks until key may proceed or ctx is done.
func (l *Limiter) Wait(ctx context.Context, key Key) error {
	ticker := time.NewTicker(time.Second / time.Duration(l.rate))
	defer ticker.Stop()
	for !l.Allow(key) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-ticker.C:
		}
	}
	return nil
}

// Close stops the limiter.
func (l *Limiter) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.closed = true
	return nil
}

// Middleware rejects requests over the limit with 429.
func Middleware(l *Limiter, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !l.Allow(Key(r.RemoteAddr)) {
			w.Header().Set("Retry-After", "1")
			http.Error(w, ErrExceeded.Error(), http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}

const usage = `ratelimit:
	rate   tokens per second
	burst  bucket size
`
