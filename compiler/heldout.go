package compiler

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Held-out content. A held-out variant (one compiled under a key derived
// from the secret seed) differs from every variant the public spec can
// enumerate, not only in its id: its draw key is an HMAC under the key, so
// its site values, traffic, benign changes and change times come from a
// stream no one without the secret can reproduce, and its parameters are
// drawn from that stream within the band of the axis point's value (a
// number anywhere in the domain cell around it, a build's patch release,
// a host's name). The key is never written anywhere; only HMAC outputs are.

// keyedStream is a generator over an HMAC of the variant's axes under key,
// for one purpose. The draws' stream leaves the parameters out, as the
// public draw key does (lang.Mutation.VariantDrawKey).
func keyedStream(key []byte, purpose string, mu *lang.Mutation, v *lang.Variant) (*rand.Rand, []byte) {
	m := hmac.New(sha256.New, key)
	axes := []string{purpose, mu.Name, v.Fault, v.Target, v.Distractor, v.DistractorTarget, v.Noise}
	// A pair's second fault and a cascade are axes too; a single fault's
	// stream is what it was before they existed.
	if v.Fault2 != "" {
		axes = append(axes, "&", v.Fault2, v.Target2)
	}
	if v.Cascade {
		axes = append(axes, "cascade")
	}
	for _, s := range axes {
		var n [binary.MaxVarintLen64]byte
		m.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		m.Write([]byte(s))
	}
	if purpose != "draws" {
		for _, p := range v.Params {
			m.Write([]byte(p.Name + "=" + p.Value.String() + ";"))
		}
		for _, p := range v.Params2 {
			m.Write([]byte("2:" + p.Name + "=" + p.Value.String() + ";"))
		}
	}
	sum := m.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16]))), sum
}

// heldOutContent keys a held-out variant's incident in: its draw key and
// its fault's parameters come from the secret's stream.
func heldOutContent(m *lang.Module, mu *lang.Mutation, v *lang.Variant, in *lang.Incident, key []byte) {
	_, sum := keyedStream(key, "draws", mu, v)
	in.DrawKey = mu.Name + "_" + hex.EncodeToString(sum[:8])
	rng, _ := keyedStream(key, "params", mu, v)
	for _, fu := range in.Faults {
		fk := m.FaultKind(fu.Name)
		if fk == nil {
			continue
		}
		for _, p := range fk.Params {
			if cur, ok := fu.Params[p.Name]; ok {
				fu.Params[p.Name] = SecretParam(rng, p, cur)
			}
		}
	}
}

// SecretParam draws a value within the band of cur, the axis point's value
// of parameter p: a number of the domain cell around cur (from cur halfway
// to each neighbouring domain value, never beyond the domain's ends), a
// build version's patch release, a host name's variant. Other strings keep
// their value: an enumerated choice (a log level, a policy) has no
// neighbours to invent.
func SecretParam(rng *rand.Rand, p *lang.Param, cur value.Value) value.Value {
	switch cur.K {
	case value.Int, value.Float:
		var xs []float64
		for _, d := range p.Domain {
			xs = append(xs, d.AsFloat())
		}
		slices.Sort(xs)
		xs = slices.Compact(xs)
		x := cur.AsFloat()
		i := slices.Index(xs, x)
		if i < 0 {
			return cur
		}
		lo, hi, closed := x, x, true
		if i > 0 {
			lo = (xs[i-1] + x) / 2
		}
		if i+1 < len(xs) {
			hi, closed = (x+xs[i+1])/2, false
		}
		if cur.K == value.Int {
			first, last := math.Ceil(lo), math.Floor(hi)
			if !closed && last == hi {
				last-- // the midpoint belongs to the next cell
			}
			if last < first {
				return cur
			}
			return value.OfInt(int64(first) + int64(rng.IntN(int(last-first)+1)))
		}
		if hi <= lo {
			return cur
		}
		step := math.Pow(10, math.Floor(math.Log10(hi-lo))-1)
		n := int(math.Floor((hi-lo)/step + 1e-9))
		if !closed && float64(n)*step >= hi-lo-1e-12 {
			n--
		}
		y := lo + float64(rng.IntN(n+1))*step
		decimals := max(0, -int(math.Floor(math.Log10(step))))
		y, _ = strconv.ParseFloat(strconv.FormatFloat(y, 'f', decimals, 64), 64)
		return value.OfFloat(min(max(y, xs[0]), xs[len(xs)-1]))
	case value.String:
		s := cur.S
		if major, patch, ok := strings.Cut(s, "."); ok && strings.HasPrefix(s, "v") && strings.Count(s, ".") == 2 {
			// A patch release of the same line: v2.14.1 -> v2.14.7.
			minor, _, _ := strings.Cut(patch, ".")
			return value.OfString(major + "." + minor + "." + strconv.Itoa(1+rng.IntN(19)))
		}
		if label, rest, ok := strings.Cut(s, "."); ok && rest != "" {
			// Another stale or misspelt name of the same domain.
			words := []string{"old", "bak", "dr", "tmp", "west", "east", "blue", "green", "legacy", "v1"}
			return value.OfString(label + "-" + words[rng.IntN(len(words))] + strconv.Itoa(1+rng.IntN(9)) + "." + rest)
		}
	}
	return cur
}
