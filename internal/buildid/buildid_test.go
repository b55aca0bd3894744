package buildid

import "testing"

// TestExecutable: the test binary has a name, the same on every call, and
// on ELF it is the Go build id the linker wrote.
func TestExecutable(t *testing.T) {
	id, ok := Executable()
	if !ok || id == "" {
		t.Fatalf("no identity: %q, %v", id, ok)
	}
	if again, _ := Executable(); again != id {
		t.Errorf("identity changed: %q then %q", id, again)
	}
	if elfID, ok := elfBuildID("/proc/self/exe"); ok && "go-build:"+elfID != id {
		t.Errorf("identity %q is not the ELF build id %q", id, elfID)
	}
	if _, ok := elfBuildID("buildid_test.go"); ok {
		t.Error("a source file has a build id")
	}
}
