package engine_test

import (
	"slices"
	"testing"

	"github.com/srezc/srezc/engine"
)

func TestGlossWords(t *testing.T) {
	for _, c := range []struct {
		description string
		want        []string
	}{
		// What follows "before", ";" or "(" says what happens, not what
		// the setting is.
		{"Memory the cache may use for data before it evicts keys.", []string{"cach", "data", "memori"}},
		{"Client connections the listener holds open at once; further connections are refused.", []string{"client", "connect", "hold", "listen", "open"}},
		{"Restrict connections to administrators (used during migrations).", []string{"administr", "connect", "restrict"}},
		{"Worker processes serving requests; each serves about 32 requests/s.", []string{"process", "request", "serv", "worker"}},
		{"", nil},
	} {
		if got := engine.GlossWords(c.description); !slices.Equal(got, c.want) {
			t.Errorf("GlossWords(%q) = %q, want %q", c.description, got, c.want)
		}
	}
}

// TestSettingNamedByWhatItDoes: a clause that names no setting but
// describes one in its description's words names it, in the state the
// clause gives; a sibling setting or the wrong direction said the same way
// is still wrong, and a symptom in the words of a description's
// consequence names nothing.
func TestSettingNamedByWhatItDoes(t *testing.T) {
	checkReadings(t, []readCase{
		{"capacity_drill_fallout", "The drill shrank the number of processes the web tier runs to serve requests and nobody restored it.", true},
		{"capacity_drill_fallout", "The drill raised the number of processes the web tier runs to serve requests far too high.", false},
		{"one_backend_melting", "The balancer is pinning each client to whichever web host served it first.", true},
		{"one_backend_melting", "The balancer holds far too few client connections open at once.", false},
		{"checkout_db_refusals", "The web tier's worker processes serving requests are too few.", false},
		{"checkout_db_refusals", "The extra connections are refused with too many clients.", false},
		// A limit "on how many X" is the X limit; "how many" says no state.
		{"checkout_db_refusals", "The database server's ceiling on how many clients it lets in was lowered to twenty.", true},
		{"checkout_db_refusals", "The database's limit on the number of connections was raised too high.", false},
		{"checkout_db_refusals", "The balancer's cap on how many connections it holds was cut.", false},
		// "the cache at an old name" is the caller's cache host.
		{"two_faults", "The app is looking for the cache at an old name that no longer exists, and the database only has ten connections.", true},
		{"two_faults", "The web app is pointed at an old cache adress that no longer exists, and the database's connection pool is tiny.", true},
		{"cache_auth_token", "The app is looking for the cache at an old name that no longer exists.", false},
		{"two_faults", "The web tier looks up the cache at cache-old.internal, which doesn't resolve; the database's pool only has 10 connections.", true},
		{"cache_auth_token", "The web tier looks up the cache at cache-old.internal, which doesn't resolve.", false},
		// "nobody restored X": X, however long the phrase naming it.
		{"capacity_drill_fallout", "After the capacity drill nobody restored the number of request workers on the app servers.", true},
		{"flash_sale_rejections", "After the capacity drill nobody restored the number of request workers on the app servers.", false},
	})
}
