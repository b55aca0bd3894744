package compiler_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/srezc/srezc"
	"github.com/srezc/srezc/certify"
	"github.com/srezc/srezc/compiler"
	"github.com/srezc/srezc/lang"
)

// TestShippedCertificates certifies every task of the embedded suite
// afresh and compares the results with the table the binary ships
// (certify/shipped_certificates.txt, see certify/shipped.go): the table
// must be exactly what this code computes, under this code's digest.
// Then it compiles the suite again through the shipped table alone and
// checks that nothing is certified afresh and every task comes out the
// same. SREZC_UPDATE=1 rewrites the table.
func TestShippedCertificates(t *testing.T) {
	m, diags := lang.Analyze(lang.ScenarioFiles())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	code := srezc.CertifierCode()
	fresh := certify.NewCache()
	want, _ := compiler.CompileWith(m, compiler.Options{Cache: fresh})
	table := fresh.ShippedTable(code)
	path := filepath.Join("..", "certify", certify.ShippedFile)
	if os.Getenv("SREZC_UPDATE") == "1" {
		rewriteShippedTable(t, path, table)
		return
	}
	if !certify.ShippedForThisToolchain() {
		t.Skipf("%s was made with another Go toolchain or architecture than %s %s: its keys cannot be found or checked here (SREZC_UPDATE=1 rewrites it)", certify.ShippedFile, runtime.Version(), runtime.GOARCH)
	}
	if shipped := certify.ShippedTableBytes(); !bytes.Equal(shipped, table) {
		lines := func(b []byte) []string {
			return slices.Collect(func(yield func(string) bool) {
				for _, l := range bytes.Split(b, []byte("\n")) {
					if !yield(string(l)) {
						return
					}
				}
			})
		}
		got, now := lines(shipped), lines(table)
		missing := 0
		for _, l := range now {
			if !slices.Contains(got, l) {
				missing++
			}
		}
		t.Fatalf("%s holds %d entries; the certifier computes %d, %d of them not shipped (the code, stdlib or suite changed, or certification is not deterministic): regenerate with SREZC_UPDATE=1 go test ./compiler -run TestShippedCertificates",
			path, len(got)-2, len(now)-2, missing)
	}

	shipped := certify.NewCache()
	shipped.UseShipped(code)
	got, _ := compiler.CompileWith(m, compiler.Options{Cache: shipped})
	if n := shipped.Fresh(); n != 0 {
		t.Errorf("through the shipped table, %d tasks were certified afresh, want none", n)
	}
	if shipped.ShippedHits() == 0 {
		t.Error("the shipped table was never used")
	}
	if len(got) != len(want) {
		t.Fatalf("%d tasks through the shipped table, %d certified afresh", len(got), len(want))
	}
	for i := range want {
		if got[i].Hash != want[i].Hash || got[i].Certified != want[i].Certified || !slices.Equal(got[i].Uncertified, want[i].Uncertified) || !slices.Equal(got[i].Plan, want[i].Plan) {
			t.Errorf("%s: through the shipped table hash %s certified %v; afresh %s certified %v", want[i].ID, got[i].Hash, got[i].Certified, want[i].Hash, want[i].Certified)
		}
	}
}

// rewriteShippedTable writes an embedded table through a temporary file
// and a rename, so that an interrupted update leaves the old table whole.
func rewriteShippedTable(t *testing.T, path string, table []byte) {
	t.Helper()
	if err := os.WriteFile(path+".tmp", table, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d bytes); rebuild to ship it", path, len(table))
}
