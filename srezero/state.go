package srezero

import (
	"encoding/binary"
	"errors"
	"math"

	"github.com/srezc/srezc/internal/snapshot"
	"github.com/srezc/srezc/value"
)

// Marshal appends the state to an episode snapshot, after the generic
// fields engine writes: evidence found (in order), the remediation flag,
// components and penalties, the seen actions, and the world's changes.
func (r *State) Marshal(b []byte) []byte {
	u := func(x uint64) { b = binary.AppendUvarint(b, x) }
	str := func(x string) { u(uint64(len(x))); b = append(b, x...) }
	u(uint64(len(r.order)))
	for _, i := range r.order {
		u(uint64(i))
	}
	remediated := uint64(0)
	if r.remediated {
		remediated = 1
	}
	u(remediated)
	for _, x := range r.parts {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, x := range r.pens {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	for _, list := range [2][]string{r.seen, r.invalid} {
		u(uint64(len(list)))
		for _, x := range list {
			str(x)
		}
	}
	for i := range r.restarts {
		u(uint64(r.restarts[i]))
		u(uint64(len(r.config[i])))
		for _, f := range r.config[i] {
			str(f.Name)
			v := f.Value
			u(uint64(v.K))
			switch v.K {
			case value.Int, value.Float, value.Bool:
				b = binary.LittleEndian.AppendUint64(b, v.Bits())
			case value.String:
				str(v.S)
			}
		}
	}
	return b
}

// Restore reads what Marshal wrote into a copy of r, which it returns; r
// itself is untouched, so a bad snapshot leaves the episode as it was.
// Errors are left in rd.
func (r *State) Restore(rd *snapshot.Reader) *State {
	c := r.Fork()
	c.Reset()
	budget := c.budget
	str := func(limit int) string { return string(rd.Bytes(rd.Len(limit))) }
	for n := rd.Len(len(c.keys)); n > 0 && rd.Err == nil; n-- {
		i := rd.Len(len(c.keys) - 1)
		if rd.Err == nil && (c.keys[i].first != i || c.found[i]) {
			rd.Fail(errors.New("state snapshot has bad evidence"))
			break
		}
		c.found[i] = true
		c.nFound++
		c.order = append(c.order, int32(i))
	}
	c.remediated = rd.Uvarint() != 0
	for i := range c.parts {
		c.parts[i] = math.Float64frombits(rd.Word())
	}
	for i := range c.pens {
		c.pens[i] = math.Float64frombits(rd.Word())
	}
	for _, list := range [2]*[]string{&c.seen, &c.invalid} {
		for n := rd.Len(budget + 1); n > 0 && rd.Err == nil; n-- {
			*list = append(*list, str(1<<24))
		}
	}
	for i := range c.restarts {
		c.restarts[i] = int32(rd.Len(budget))
		n := rd.Len(cap(c.config[i]))
		if rd.Err == nil && n < len(r.task.Services[i].Config) {
			rd.Fail(errors.New("state snapshot lost config keys"))
		}
		c.config[i] = c.config[i][:0]
		for ; n > 0 && rd.Err == nil; n-- {
			f := Field{Name: str(1 << 24)}
			switch k := value.Kind(rd.Len(int(value.String))); k {
			case value.Int:
				f.Value = value.OfInt(int64(rd.Word()))
			case value.Float:
				f.Value = value.OfFloat(math.Float64frombits(rd.Word()))
			case value.Bool:
				f.Value = value.OfBool(rd.Word() != 0)
			case value.String:
				f.Value = value.OfString(str(1 << 24))
			}
			c.config[i] = append(c.config[i], f)
		}
	}
	return c
}
