// Package buildid names the running executable's code, for caches whose
// entries are only valid for the code that wrote them.
package buildid

import (
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// Executable returns a name of the running executable's code: two
// executables with the same name behave the same. It is the Go build id
// where the executable carries one that can be read cheaply (ELF), else the
// VCS revision of a build from an unmodified checkout, else a hash of the
// executable's bytes. ok is false when none can be had.
var Executable = sync.OnceValues(func() (string, bool) {
	path, err := os.Executable()
	if err != nil {
		return "", false
	}
	if id, ok := elfBuildID(path); ok {
		return "go-build:" + id, true
	}
	if id, ok := vcsRevision(); ok {
		return "vcs:" + id, true
	}
	return contentHash(path)
})

// elfBuildID reads the .note.go.buildid section the Go linker writes into
// ELF executables; it changes whenever the executable's content does.
func elfBuildID(path string) (string, bool) {
	f, err := elf.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil {
		return "", false
	}
	b, err := s.Data()
	if err != nil || len(b) == 0 {
		return "", false
	}
	return hex.EncodeToString(b), true
}

// vcsRevision is the commit an unmodified checkout was built from, with
// the toolchain and platform, which also shape the code.
func vcsRevision() (string, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" || modified != "false" {
		return "", false
	}
	return rev + "/" + bi.GoVersion + "/" + runtime.GOOS + "/" + runtime.GOARCH, true
}

func contentHash(path string) (string, bool) {
	f, err := os.Open(path)
	if err != nil {
		return "", false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", false
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), true
}
