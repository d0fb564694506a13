package stats

import (
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 5e-4 }

func TestWilson(t *testing.T) {
	// Hand-computed with z = 1.96:
	// center = (p + z²/2n) / (1 + z²/n), half = z/(1+z²/n) · sqrt(p(1-p)/n + z²/4n²).
	tests := []struct {
		passed, n int
		low, high float64
	}{
		{0, 0, 0, 1},
		{0, 3, 0, 0.5615}, // z²/n = 1.2805; high = 1.2805/2.2805
		{3, 3, 0.4385, 1}, // mirror of 0 of 3
		{1, 2, 0.0945, 0.9055},
		{46, 57, 0.6866, 0.8887}, // the October 2026 run: center 0.78764, half 0.10104
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{0, 1, 0, 0.7935},
		{-1, 3, 0, 0.5615}, // clamped
		{4, 3, 0.4385, 1},  // clamped
	}
	for _, tt := range tests {
		low, high := Wilson(tt.passed, tt.n)
		if !near(low, tt.low) || !near(high, tt.high) {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.passed, tt.n, low, high, tt.low, tt.high)
		}
		if low < 0 || high > 1 || low > high {
			t.Errorf("Wilson(%d, %d) = [%v, %v]: not an interval in [0, 1]", tt.passed, tt.n, low, high)
		}
	}
}

func TestWilsonContainsRate(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for c := 0; c <= n; c++ {
			low, high := Wilson(c, n)
			p := float64(c) / float64(n)
			if p < low-1e-12 || p > high+1e-12 {
				t.Fatalf("Wilson(%d, %d) = [%v, %v] does not contain %v", c, n, low, high, p)
			}
		}
	}
}

func TestPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64
	}{
		{3, 0, 1, 0},
		{3, 1, 1, 1.0 / 3},
		{3, 1, 2, 2.0 / 3},       // 1 - C(2,2)/C(3,2) = 1 - 1/3
		{3, 1, 3, 1},             // 1 - C(2,3)/C(3,3) = 1 - 0
		{3, 2, 2, 1},             // 1 - C(1,2)/C(3,2) = 1
		{5, 2, 2, 0.7},           // 1 - C(3,2)/C(5,2) = 1 - 3/10
		{10, 3, 5, 1 - 21.0/252}, // 1 - C(7,5)/C(10,5)
		{0, 0, 1, 0},
		{3, 3, 3, 1},
		{3, 1, 0, 1.0 / 3}, // k clamped to 1
		{3, 1, 9, 1},       // k clamped to 3
	}
	for _, tt := range tests {
		if got := PassAtK(tt.n, tt.c, tt.k); !near(got, tt.want) {
			t.Errorf("PassAtK(%d, %d, %d) = %v, want %v", tt.n, tt.c, tt.k, got, tt.want)
		}
	}
}

func TestPassHatK(t *testing.T) {
	tests := []struct {
		n, c, k int
		want    float64
	}{
		{3, 3, 3, 1},
		{3, 2, 3, 0},
		{3, 2, 2, 1.0 / 3},     // C(2,2)/C(3,2)
		{3, 2, 1, 2.0 / 3},     // C(2,1)/C(3,1)
		{5, 4, 2, 0.6},         // C(4,2)/C(5,2) = 6/10
		{10, 7, 5, 21.0 / 252}, // C(7,5)/C(10,5)
		{0, 0, 1, 0},
		{3, 0, 1, 0},
	}
	for _, tt := range tests {
		if got := PassHatK(tt.n, tt.c, tt.k); !near(got, tt.want) {
			t.Errorf("PassHatK(%d, %d, %d) = %v, want %v", tt.n, tt.c, tt.k, got, tt.want)
		}
	}
}

func TestPassKBounds(t *testing.T) {
	// pass^k <= c/n <= pass@k for every k, with equality at k = 1.
	for n := 1; n <= 12; n++ {
		for c := 0; c <= n; c++ {
			p := float64(c) / float64(n)
			for k := 1; k <= n; k++ {
				at, hat := PassAtK(n, c, k), PassHatK(n, c, k)
				if hat > p+1e-12 || at < p-1e-12 {
					t.Fatalf("n=%d c=%d k=%d: pass^k %v, rate %v, pass@k %v out of order", n, c, k, hat, p, at)
				}
				if k == 1 && (!near(at, p) || !near(hat, p)) {
					t.Fatalf("n=%d c=%d k=1: pass@1 %v and pass^1 %v, want %v", n, c, at, hat, p)
				}
			}
		}
	}
}
