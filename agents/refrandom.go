package agents

import (
	"math/bits"
	"strconv"
)

// RefRandom is the SRE-Zero reference's random agent (spec §11.2),
// reproduced draw for draw: CPython's Mersenne Twister seeded as
// random.Random(seed) is, and random.choice over the same lists in the same
// order. Its actions are written in the reference's text form, which an
// sre_zero task parses back to the structured actions the reference's
// agent builds.
type RefRandom struct {
	mt mersenne
}

// NewRefRandom returns the reference random agent for seed.
func NewRefRandom(seed uint64) *RefRandom {
	r := &RefRandom{}
	r.mt.seed(seed)
	return r
}

// Begin does nothing: the reference's agent is never re-seeded by reset.
func (r *RefRandom) Begin(string) {}

var (
	refTypes    = []string{"inspect_logs", "inspect_metrics", "check_status", "inspect_config", "restart_service", "update_config", "resolve_incident", "escalate"}
	refServices = []string{"web_server", "database", "cache", "message_queue", "load_balancer", "queue"}
	refKeys     = []string{"", "TIMEOUT_MS", "DB_POOL_SIZE", "TTL_SECONDS", "CONSUMER_CONCURRENCY", "MAX_CONNECTIONS", "UNKNOWN"}
	refUpdate   = map[string]string{"web_server": "TIMEOUT_MS", "database": "DB_POOL_SIZE", "cache": "TTL_SECONDS", "message_queue": "CONSUMER_CONCURRENCY", "load_balancer": "MAX_CONNECTIONS", "queue": "UNKNOWN"}
	refValues   = []int{10, 100, 300, 5000}
	refCauses   = []string{"cache crashed", "database pool exhaustion", "web timeout misconfiguration", "message queue backlog", "load balancer misconfiguration", "unknown root cause"}
	refFixes    = []string{"restart cache", "increase database pool", "increase web timeout", "increase queue consumers", "update load balancer config", "no fix"}
)

// Act draws the next action: the type, then a service (always drawn,
// even when unused), then what the type needs.
func (r *RefRandom) Act(string) (string, bool) {
	typ := refTypes[r.mt.below(len(refTypes))]
	svc := refServices[r.mt.below(len(refServices))]
	switch typ {
	case "inspect_config":
		if k := refKeys[r.mt.below(len(refKeys))]; k != "" {
			return "inspect_config(" + svc + ", " + k + ")", true
		}
		return "inspect_config(" + svc + ")", true
	case "update_config":
		v := refValues[r.mt.below(len(refValues))]
		return "update_config(" + svc + ", " + refUpdate[svc] + ", " + strconv.Itoa(v) + ")", true
	case "resolve_incident":
		cause := refCauses[r.mt.below(len(refCauses))]
		fix := refFixes[r.mt.below(len(refFixes))]
		return "resolve_incident(" + cause + ", " + fix + ")", true
	case "escalate":
		return "escalate(random baseline escalation)", true
	}
	return typ + "(" + svc + ")", true
}

// mersenne is MT19937 as CPython's _random module runs it.
type mersenne struct {
	s [624]uint32
	i int
}

func (m *mersenne) initGenrand(s uint32) {
	m.s[0] = s
	for i := 1; i < 624; i++ {
		m.s[i] = 1812433253*(m.s[i-1]^(m.s[i-1]>>30)) + uint32(i)
	}
	m.i = 624
}

// seed is random.Random(seed) for a non-negative int: init_by_array over
// the seed's 32-bit words, least significant first ([0] for 0).
func (m *mersenne) seed(seed uint64) {
	key := []uint32{uint32(seed)}
	if hi := uint32(seed >> 32); hi != 0 {
		key = append(key, hi)
	}
	m.initGenrand(19650218)
	i, j := 1, 0
	for k := max(624, len(key)); k > 0; k-- {
		m.s[i] = (m.s[i] ^ ((m.s[i-1] ^ (m.s[i-1] >> 30)) * 1664525)) + key[j] + uint32(j)
		i++
		j++
		if i >= 624 {
			m.s[0] = m.s[623]
			i = 1
		}
		if j >= len(key) {
			j = 0
		}
	}
	for k := 623; k > 0; k-- {
		m.s[i] = (m.s[i] ^ ((m.s[i-1] ^ (m.s[i-1] >> 30)) * 1566083941)) - uint32(i)
		i++
		if i >= 624 {
			m.s[0] = m.s[623]
			i = 1
		}
	}
	m.s[0] = 0x80000000
}

func (m *mersenne) uint32() uint32 {
	if m.i >= 624 {
		for k := 0; k < 624; k++ {
			y := m.s[k]&0x80000000 | m.s[(k+1)%624]&0x7fffffff
			v := m.s[(k+397)%624] ^ y>>1
			if y&1 != 0 {
				v ^= 0x9908b0df
			}
			m.s[k] = v
		}
		m.i = 0
	}
	y := m.s[m.i]
	m.i++
	y ^= y >> 11
	y ^= y << 7 & 0x9d2c5680
	y ^= y << 15 & 0xefc60000
	y ^= y >> 18
	return y
}

// getrandbits is random.getrandbits(k) for 1 ≤ k ≤ 32.
func (m *mersenne) getrandbits(k int) uint32 { return m.uint32() >> (32 - k) }

// below is random._randbelow(n): k = n.bit_length() bits at a time, until
// one draw falls below n.
func (m *mersenne) below(n int) int {
	k := bits.Len(uint(n))
	for {
		if r := int(m.getrandbits(k)); r < n {
			return r
		}
	}
}
