package agents

import (
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// RefRandom plays exactly what the reference's RandomAgent plays: the
// expected actions and raw draws come from CPython's own random module
// (testdata/refrandom.py), for seeds from 0 to past 2^63.
func TestRefRandomMatchesCPython(t *testing.T) {
	data, err := os.ReadFile("testdata/refrandom.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		Actions map[string][]string `json:"actions"`
		Raw     map[string][]uint32 `json:"getrandbits32"`
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	for s, draws := range want.Raw {
		seed, _ := strconv.ParseUint(s, 10, 64)
		var m mersenne
		m.seed(seed)
		for i, w := range draws {
			if got := m.getrandbits(32); got != w {
				t.Fatalf("seed %s draw %d: %d, CPython %d", s, i, got, w)
			}
		}
	}
	if len(want.Actions) == 0 {
		t.Fatal("no expected actions")
	}
	for s, actions := range want.Actions {
		seed, _ := strconv.ParseUint(s, 10, 64)
		a := NewRefRandom(seed)
		a.Begin("")
		for i, w := range actions {
			if got, _ := a.Act(""); got != w {
				t.Fatalf("seed %s action %d: %q, the reference's agent %q", s, i, got, w)
			}
		}
	}
}
