package cardapi

import (
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for header, want := range map[string]time.Duration{
		"2":                             2100 * time.Millisecond,
		"Thu, 01 Jan 2026 00:00:03 GMT": 4 * time.Second,
		"Wed, 31 Dec 2025 23:00:00 GMT": time.Second,
		"":                              time.Second,
		"soon":                          time.Second,
	} {
		if got := retryAfter(header, now); got != want {
			t.Errorf("retryAfter(%q) = %v, want %v", header, got, want)
		}
	}
}

func TestTokenFreshness(t *testing.T) {
	short := &Token{ExpiresAt: time.Now().Add(900 * time.Millisecond).UTC().Format(isoMillis), lifetime: time.Second}
	if !short.fresh() {
		t.Error("a token of 1 s is fresh for its first half")
	}
	cached := &Token{ExpiresAt: time.Now().Add(30 * time.Second).UTC().Format(isoMillis)}
	if cached.fresh() {
		t.Error("a cached token is renewed 60 s before it expires")
	}
}
