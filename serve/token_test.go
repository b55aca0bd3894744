package serve

import (
	"strings"
	"testing"
)

// FuzzOpenToken: any string opens to a refusal, never a panic; a sealed
// state opens to itself, and flipping any of its characters is refused.
func FuzzOpenToken(f *testing.F) {
	s, err := newSealer([]byte("fuzzing key, fuzzing key, fuzzing"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add("", "ep", uint64(1), "inspect_logs(db)\nresolve_incident(a, b)")
	f.Add("AAAA", "x", uint64(0), "")
	f.Add(s.seal(&tokenState{Episode: "e", Hash: "h", Seed: 3, Actions: []string{"a"}}), "e", uint64(3), "a")
	f.Fuzz(func(t *testing.T, junk, id string, seed uint64, actions string) {
		// Only a token this key sealed opens, and it reseals to itself.
		if st, err := s.open(junk); err == nil && s.seal(st) != junk {
			t.Fatalf("%q opened but is not the seal of what it holds", junk)
		}
		st := &tokenState{Episode: id, Hash: "hash", Seed: seed}
		if actions != "" {
			st.Actions = strings.Split(actions, "\n")
		}
		tok := s.seal(st)
		back, err := s.open(tok)
		if err != nil {
			t.Fatalf("a sealed state does not open: %v", err)
		}
		if back.Episode != id || back.Seed != seed || strings.Join(back.Actions, "\n") != actions {
			t.Fatalf("opened %+v, sealed %+v", back, st)
		}
		if s.seal(st) != tok {
			t.Fatal("sealing is not deterministic")
		}
		i := int(seed % uint64(len(tok)))
		bad := []byte(tok)
		bad[i] = "AB"[(bad[i]+1)%2]
		if string(bad) != tok {
			if _, err := s.open(string(bad)); err == nil {
				t.Fatalf("a changed token opened (position %d)", i)
			}
		}
	})
}
