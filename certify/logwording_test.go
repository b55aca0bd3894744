package certify_test

import (
	"strings"
	"testing"
)

// TestLogWordingFindsExplanations plants explanatory wording in a shipped
// incident's log text: each must fail the lint with the finding named, and
// each real system's message quoted as it prints it must pass.
func TestLogWordingFindsExplanations(t *testing.T) {
	cases := []struct {
		id, svc, lit string
		want         string // "" = clean
	}{
		// Comparisons of a setting with what it should be, advice, causes.
		{"db_pool", "database", "pooler size should be 50 ", `the explanatory wording "should be"`},
		{"product_reads_cold", "cache", "ttl is too low for this traffic ", `the explanatory wording "too low"`},
		{"db_pool", "database", "connections refused because the server limit is reached ", `the explanatory wording "because"`},
		{"orders_statements_cut", "database", "ERROR:  canceling statement due to statement timeout (40ms) ", `the explanatory wording "due to"`},
		{"orders_statements_cut", "database", "statements failing due to query timeout ", `the explanatory wording "due to"`},
		{"launch_day_refusals", "load_balancer", "consider raising maxconn ", `the explanatory wording "consider"`},
		// Paraphrases of what the docs publish: the old wordings issue 19 quoted.
		{"product_reads_cold", "cache", "keys expiring before reuse: entries live 30s ", `"expir reuse", words of the description of`},
		{"invoice_backlog_overdrive", "database", "read-only statements executing on primary ", `"read state", words of the description of`},
		{"db_pool", "database", "callers wait for a connection ", `"calle wait", words of the description of mechanism connection_pool_exhausted`},
		// Real messages, as their systems print them.
		{"orders_statements_cut", "database", "ERROR:  canceling statement due to statement timeout ", ""},
		{"db_pool", "database", "closing because: query_wait_timeout (age=1s) ", ""},
		{"checkout_db_refusals", "database", "FATAL:  sorry, too many clients already ", ""},
		{"product_reads_cold", "cache", "INFO stats: expired_keys +7344 keyspace_misses +10080 ", ""},
	}
	suite := suiteByID(t)
	for _, c := range cases {
		got := leakFailures(withLog(t, suite[c.id], c.svc, c.lit))
		if c.want == "" {
			if len(got) > 0 {
				t.Errorf("%s, %q: unexpected %q", c.id, c.lit, got)
			}
			continue
		}
		found := false
		for _, f := range got {
			found = found || strings.Contains(f, "explains instead of showing: "+c.want) || strings.Contains(f, c.want)
		}
		if !found {
			t.Errorf("%s, %q: got %q, want a finding containing %q", c.id, c.lit, got, c.want)
		}
	}
}
