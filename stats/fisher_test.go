package stats

import (
	"math"
	"testing"
)

func TestFisher(t *testing.T) {
	// Values computed exactly, with rational arithmetic over the
	// hypergeometric probabilities.
	tests := []struct {
		a, b, c, d int
		want       float64
	}{
		{3, 0, 0, 3, 0.1},          // 2 / C(6,3)
		{5, 0, 0, 5, 0.007937},     // 2 / C(10,5)
		{10, 0, 0, 10, 1.0825e-05}, // 2 / C(20,10)
		{3, 0, 3, 0, 1},            // no failures anywhere
		{0, 0, 2, 1, 1},            // an empty row
		{1, 9, 11, 3, 0.0027595},   // a classic textbook table
		{46, 11, 40, 17, 0.27654},
		{57, 0, 48, 9, 0.0027759},
		{2, 1, 1, 2, 1},
	}
	for _, tt := range tests {
		got := Fisher(tt.a, tt.b, tt.c, tt.d)
		if math.Abs(got-tt.want) > 1e-3*max(tt.want, 1e-3) {
			t.Errorf("Fisher(%d, %d, %d, %d) = %.6g, want %.6g", tt.a, tt.b, tt.c, tt.d, got, tt.want)
		}
	}
}

func TestFisherSymmetric(t *testing.T) {
	for a := 0; a <= 6; a++ {
		for b := 0; b <= 6; b++ {
			for c := 0; c <= 6; c++ {
				for d := 0; d <= 6; d++ {
					p := Fisher(a, b, c, d)
					if p < 0 || p > 1 {
						t.Fatalf("Fisher(%d, %d, %d, %d) = %v: not a probability", a, b, c, d, p)
					}
					if q := Fisher(c, d, a, b); math.Abs(p-q) > 1e-12 {
						t.Fatalf("Fisher(%d, %d, %d, %d) = %v but with the rows swapped %v", a, b, c, d, p, q)
					}
					if q := Fisher(b, a, d, c); math.Abs(p-q) > 1e-12 {
						t.Fatalf("Fisher(%d, %d, %d, %d) = %v but with the columns swapped %v", a, b, c, d, p, q)
					}
				}
			}
		}
	}
}

func TestMinFisher(t *testing.T) {
	if got := MinFisher(3, 3); math.Abs(got-0.1) > 1e-9 {
		t.Errorf("MinFisher(3, 3) = %v, want 0.1", got)
	}
	if got := MinFisher(0, 3); got != 1 {
		t.Errorf("MinFisher(0, 3) = %v, want 1", got)
	}
}
