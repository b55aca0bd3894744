package certify_test

import (
	"testing"

	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/internal/worldtest"
	"github.com/srezc/srezc/lang"
)

// Certification is tested on compiled incidents, so these tests import the
// compiler (a test may; the package may not), through worldtest.
var (
	shippedModule = worldtest.Shipped
	suiteTasks    = worldtest.Suite
	world         = worldtest.World
	bind          = worldtest.Bind
)

// prepared compiles an incident up to certification.
func prepared(t testing.TB, m *lang.Module, in *lang.Incident) certify.Incident {
	t.Helper()
	inc, diags := compiler.Prepare(m, in)
	if diags.HasErrors() {
		t.Fatalf("%s: %v", in.Name, diags)
	}
	return inc
}
