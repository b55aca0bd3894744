package certify

import (
	"slices"
	"testing"

	"github.com/srezc/srezc/engine"
)

// TestHittingSetIsExact: where a greedy cover would take three reads (the
// read that tells most alternatives apart first), the search finds the two
// that suffice; ties go to the better-ranked reads.
func TestHittingSetIsExact(t *testing.T) {
	const x, y, z = 0, 1, 2
	d := &derived{
		reads:   make([]engine.Read, 3),
		faulted: []bool{false},
		alts: []alternative{
			{name: "1", hits: []int{x, y}}, {name: "2", hits: []int{x, y}},
			{name: "3", hits: []int{x, z}}, {name: "4", hits: []int{x, z}},
			{name: "5", hits: []int{y}}, {name: "6", hits: []int{z}},
		},
	}
	if got := d.hittingSet(); !slices.Equal(got, []int{y, z}) {
		t.Errorf("hitting set %v, want [%d %d]", got, y, z)
	}
	d.alts = []alternative{{name: "1", hits: []int{x, y}}, {name: "2", hits: []int{y, z}}}
	if got := d.hittingSet(); !slices.Equal(got, []int{y}) {
		t.Errorf("hitting set %v, want [%d]", got, y)
	}
	// Evidence of a fault ranks first among equals.
	d.alts = []alternative{{name: "1", hits: []int{x, z}}}
	d.evidence = [][]int{{z}}
	if got := d.hittingSet(); !slices.Equal(got, []int{z}) {
		t.Errorf("hitting set %v, want [%d]", got, z)
	}
}
