package lsp

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/srezc/srezc/lang"
)

// materializeStdlib writes the embedded stdlib to a read-only folder under
// the user cache, named by its content, so definitions in it open in an
// editor; "" when it cannot.
func materializeStdlib() string {
	return materialize("stdlib", lang.StdlibFiles(), lang.StdlibPrefix)
}

// materializeEmbedded writes the embedded default (DIR/scenarios/…,
// DIR/mutations/…) the same way, for definitions of the embedded bases a
// module names.
func materializeEmbedded() string {
	return materialize("embedded", lang.EmbeddedFiles(), "")
}

// materialize writes files, their names without prefix, into a read-only
// folder named kind and their content's hash.
func materialize(kind string, files []*lang.File, prefix string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f.Name))
		h.Write(f.Src)
	}
	dir := filepath.Join(base, "srezc", kind+"-"+hex.EncodeToString(h.Sum(nil))[:12])
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	tmp, err := os.MkdirTemp(filepath.Join(base, "srezc"), "."+kind+"-*")
	if err != nil && os.MkdirAll(filepath.Join(base, "srezc"), 0o755) == nil {
		tmp, err = os.MkdirTemp(filepath.Join(base, "srezc"), "."+kind+"-*")
	}
	if err != nil {
		return ""
	}
	for _, f := range files {
		p := filepath.Join(tmp, filepath.FromSlash(strings.TrimPrefix(f.Name, prefix)))
		if os.MkdirAll(filepath.Dir(p), 0o755) != nil || os.WriteFile(p, f.Src, 0o444) != nil {
			os.RemoveAll(tmp)
			return ""
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, err := os.Stat(dir); err == nil {
			return dir // another server got there first
		}
		return ""
	}
	return dir
}
