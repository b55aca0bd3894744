package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/srezc/srezc/value"
)

// validateRef checks an sre_zero task: the profile's shape (no native
// program: the world is Ref's fixtures) and everything Step and the
// renderer index by.
func (t *Task) validateRef() error {
	if len(t.Slots) != 0 || len(t.Code) != 0 || len(t.Updates) != 0 || len(t.Logs) != 0 ||
		len(t.Tools) != 0 || len(t.Services) != 0 || len(t.Init) != 0 || t.Resolved != (Span{}) {
		return errors.New("an sre_zero task has no native slots, code, logs, tools or services")
	}
	if t.History != 2 || t.InitTick < 0 || t.InitTick > 1<<20 {
		return errors.New("an sre_zero task keeps history 2")
	}
	// The reference allows any max_steps; srezc sizes an episode's state
	// by the budget, so it must be a real one.
	if t.Budget < 1 || t.Budget > 10000 {
		return errors.New("budget out of range")
	}
	r := t.Ref
	if r == nil {
		return errors.New("an sre_zero task needs its ref data")
	}
	if len(r.Services) != len(refServiceNames) {
		return fmt.Errorf("ref: %d services, want the reference's %d", len(r.Services), len(refServiceNames))
	}
	for i := range r.Services {
		s := &r.Services[i]
		if s.Name != refServiceNames[i] {
			return fmt.Errorf("ref: service %d is %q, want %q", i, s.Name, refServiceNames[i])
		}
		for _, group := range [][]RefField{s.Metrics, s.Config} {
			for j, f := range group {
				if f.Value.K == value.Null || f.Value.K > value.String {
					return fmt.Errorf("ref: service %s: %s has no value", s.Name, f.Name)
				}
				for k := 0; k < j; k++ {
					if group[k].Name == f.Name {
						return fmt.Errorf("ref: service %s: %s appears twice", s.Name, f.Name)
					}
				}
			}
		}
		for _, d := range s.Dependencies {
			if !knownRefService(d) {
				return fmt.Errorf("ref: service %s depends on unknown %q", s.Name, d)
			}
		}
	}
	f := &r.Fix
	if refActionIndex(f.ActionType) < 0 {
		return fmt.Errorf("ref: fix action type %q", f.ActionType)
	}
	if !knownRefService(f.Service) {
		return fmt.Errorf("ref: fix service %q", f.Service)
	}
	if f.Key != "" && !f.HasKey {
		return errors.New("ref: fix key without has_key")
	}
	if f.Exact.K > value.String || math.IsNaN(f.MinNumeric) && f.HasMin {
		return errors.New("ref: bad fix value")
	}
	for _, d := range r.DistractorServices {
		if !knownRefService(d) {
			return fmt.Errorf("ref: distractor service %q", d)
		}
	}
	return nil
}

func knownRefService(name string) bool {
	for _, n := range refServiceNames {
		if n == name {
			return true
		}
	}
	return false
}

// marshal appends the sre_zero state after the generic fields
// MarshalState writes: evidence found (in order), the remediation flag,
// components and penalties, the seen actions, and the world's changes.
func (r *refEpisode) marshal(b []byte) []byte {
	u := func(x uint64) { b = binary.AppendUvarint(b, x) }
	s := func(x string) { u(uint64(len(x))); b = append(b, x...) }
	u(uint64(len(r.order)))
	for _, i := range r.order {
		u(uint64(i))
	}
	u(b2w(r.remediated))
	for _, x := range r.parts {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, x := range r.pens {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, list := range [2][]string{r.seen, r.invalid} {
		u(uint64(len(list)))
		for _, x := range list {
			s(x)
		}
	}
	for i := range r.restarts {
		u(uint64(r.restarts[i]))
		u(uint64(len(r.config[i])))
		for _, f := range r.config[i] {
			s(f.Name)
			v := f.Value
			u(uint64(v.K))
			switch v.K {
			case value.Int, value.Float, value.Bool:
				b = binary.LittleEndian.AppendUint64(b, v.Bits())
			case value.String:
				s(v.S)
			}
		}
	}
	return b
}

// restore reads what marshal wrote into a copy of r, which it returns;
// r itself is untouched, so a bad snapshot leaves the episode as it was.
func (r *refEpisode) restore(rd *stateReader, budget int) *refEpisode {
	c := r.fork()
	c.reset()
	str := func(limit int) string { return string(rd.bytes(rd.n(limit))) }
	for n := rd.n(len(c.keys)); n > 0 && rd.err == nil; n-- {
		i := rd.n(len(c.keys) - 1)
		if rd.err == nil && (c.keys[i].first != i || c.found[i]) {
			rd.err = errors.New("state snapshot has bad evidence")
			break
		}
		c.found[i] = true
		c.nFound++
		c.order = append(c.order, int32(i))
	}
	c.remediated = rd.u() != 0
	for i := range c.parts {
		c.parts[i] = math.Float64frombits(rd.w())
	}
	for i := range c.pens {
		c.pens[i] = math.Float64frombits(rd.w())
	}
	for _, list := range [2]*[]string{&c.seen, &c.invalid} {
		for n := rd.n(budget + 1); n > 0 && rd.err == nil; n-- {
			*list = append(*list, str(1<<24))
		}
	}
	for i := range c.restarts {
		c.restarts[i] = int32(rd.n(budget))
		n := rd.n(cap(c.config[i]))
		if rd.err == nil && n < len(r.task.Services[i].Config) {
			rd.err = errors.New("state snapshot lost config keys")
		}
		c.config[i] = c.config[i][:0]
		for ; n > 0 && rd.err == nil; n-- {
			f := RefField{Name: str(1 << 24)}
			switch k := value.Kind(rd.n(int(value.String))); k {
			case value.Int:
				f.Value = value.OfInt(int64(rd.w()))
			case value.Float:
				f.Value = value.OfFloat(math.Float64frombits(rd.w()))
			case value.Bool:
				f.Value = value.OfBool(rd.w() != 0)
			case value.String:
				f.Value = value.OfString(str(1 << 24))
			}
			c.config[i] = append(c.config[i], f)
		}
	}
	return c
}
