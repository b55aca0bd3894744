// Package srezc names the code that certifies incidents, so that
// certification results computed ahead of time (certify's shipped table)
// are used only by a binary whose certifier is the one that computed them.
package srezc

import (
	"crypto/sha256"
	"embed"
	"io/fs"
	"runtime"
	"sort"
	"sync"

	"github.com/srezc/srezc/scenarios"
	"github.com/srezc/srezc/stdlib"
)

// certifierSources are the sources a certification result depends on
// besides its key: every package the compiler imports from this module
// (certification runs inside compilation and builds its counterfactual
// worlds there), tests included, which is conservative, and the module's
// dependency versions. TestCertifierCodeCoversTheCompiler checks that the
// list names every such package; the stdlib and the embedded suite are
// hashed from their own packages.
//
//go:embed go.mod go.sum
//go:embed value/*.go record/*.go agents/*.go internal/snapshot/*.go srezero/*.go
//go:embed engine/*.go action/*.go lang/*.go published/*.go certify/*.go compiler/*.go
//go:embed stdlib/*.go scenarios/*.go mutations/*.go
var certifierSources embed.FS

// CertifierPackages are the module's packages whose sources
// CertifierCode hashes.
var CertifierPackages = []string{"value", "record", "agents", "internal/snapshot", "srezero",
	"engine", "action", "lang", "published", "certify", "compiler", "stdlib", "scenarios", "mutations"}

// CertifierCode is a digest of the code that compiles and certifies
// incidents in this binary: the sources above, the stdlib, the embedded
// suite, the Go toolchain and the architecture (floating-point contraction
// differs between architectures). Two binaries with the same digest
// certify every task alike.
var CertifierCode = sync.OnceValue(func() [sha256.Size]byte {
	h := sha256.New()
	code := CompilerCode()
	h.Write([]byte("srezc certifier 2\x00"))
	h.Write(code[:])
	hashFS(h, "stdlib", stdlib.FS)
	hashFS(h, "scenarios", scenarios.FS)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
})

// CompilerCode is a digest of the code that analyses and compiles
// incidents in this binary: the sources above, the Go toolchain and the
// architecture, without the stdlib and the embedded suite. A result keyed
// by it names the sources it read itself (srezc validate's shipped
// results are keyed per incident, compiler.CheckWith), so that editing one
// incident invalidates that incident's result alone.
var CompilerCode = sync.OnceValue(func() [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte("srezc compiler 1\x00" + runtime.Version() + "\x00" + runtime.GOARCH + "\x00"))
	hashFS(h, "src", certifierSources)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return sum
})

// hashFS writes every file of fsys, by path and content, in path order.
func hashFS(h interface{ Write([]byte) (int, error) }, name string, fsys fs.FS) {
	var paths []string
	fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	sort.Strings(paths)
	h.Write([]byte(name + "\x00"))
	for _, p := range paths {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			b = []byte("unreadable")
		}
		var n [8]byte
		for i := range n {
			n[i] = byte(len(b) >> (8 * i))
		}
		h.Write([]byte(p + "\x00"))
		h.Write(n[:])
		h.Write(b)
	}
}
