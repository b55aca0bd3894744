package record

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Marshal encodes a line as records.jsonl holds it: one JSON object, fields
// in Line's order, ending in a newline. The JSON is encoding/json's
// (HTML-escaped), as every srezc so far has written it.
func Marshal(r *Line) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Append appends one line to a records.jsonl, creating it (and its folder)
// if need be, and syncs file and folder before returning.
func Append(path string, r *Line) error {
	line, err := Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(line); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(path))
}

// WriteFileAtomic writes data to path through a temporary file in the same
// folder, synced, then renamed over path, and syncs the folder: a reader
// (or a crash) sees the old file or the new one, never half of one. It is
// how records.jsonl is rewritten (a resumed or finished sweep, a judge
// pass) and how the files computed from records reach the disk.
func WriteFileAtomic(path string, data []byte) error { return WriteFileAtomicMode(path, data, 0o644) }

// WriteFileAtomicMode is WriteFileAtomic giving the file mode perm before
// it appears under its name.
func WriteFileAtomicMode(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, perm)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	return SyncDir(dir)
}

// SyncDir syncs a folder, so that a file created or renamed in it survives
// a crash.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
