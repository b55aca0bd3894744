package engine_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
	"testing"

	"github.com/srezc/srezc/engine"
)

// FuzzDecodeTask feeds the IR decoder. DecodeTask must never panic; a task
// it accepts must re-encode to bytes that decode again to the same
// encoding, and must play: Reset, a few invalid actions, the expert plan,
// and the text rendering of every observation, without panicking.
//
// An IR file's header carries the SHA-256 of its body, so nearly every
// mutation of a whole file stops at the hash check. Each input is therefore
// also tried as a body: any header line is dropped and the body is framed
// anew with a correct header, so the fuzzer reaches the JSON decoding and
// Validate.
//
// Seeds: the tasks of the test world, encoded, plus truncated and edited
// versions and their bodies. Crashers found so far are kept in
// testdata/fuzz/FuzzDecodeTask.
func FuzzDecodeTask(f *testing.F) {
	tasks := world(f)
	ids := make([]string, 0, len(tasks))
	for id := range tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		data, err := engine.EncodeTask(tasks[id])
		if err != nil {
			f.Fatal(err)
		}
		_, body, _ := bytes.Cut(data, []byte{'\n'})
		f.Add(data)
		f.Add(body)
		f.Add(data[:len(data)/2])
		f.Add(body[:len(body)/3])
		f.Add(bytes.Replace(body, []byte(`"budget":`), []byte(`"budget":-`), 1))
		f.Add(bytes.Replace(body, []byte(`"history":`), []byte(`"history":1`), 1))
		f.Add(bytes.Replace(body, []byte(`"slot":`), []byte(`"slot":9`), 1))
		f.Add(bytes.Replace(body, []byte(`"start":`), []byte(`"start":1`), 1))
		f.Add(bytes.Replace(body, []byte(`"op":`), []byte(`"op":4`), 1))
		f.Add(bytes.Replace(body, []byte(`"strings":[`), []byte(`"strings":["zzz",`), 1))
		f.Add(bytes.Replace(data, []byte(fmt.Sprintf("srezc-ir %d ", engine.FormatVersion)), []byte("srezc-ir 99 "), 1))
		// Declared trace spans: a call to a service that does not exist,
		// a kind no span has, a status slot out of range.
		f.Add(bytes.Replace(body, []byte(`"calls":[`), []byte(`"calls":[999,`), 1))
		f.Add(bytes.Replace(body, []byte(`"spans":[{"kind":`), []byte(`"spans":[{"kind":7`), 1))
		f.Add(bytes.Replace(body, []byte(`"wait":`), []byte(`"wait":9999`), 1))
	}
	f.Add([]byte{})
	f.Add([]byte("srezc-ir 1 00\n{}\n"))
	f.Add([]byte("{}"))
	f.Add([]byte("null"))

	f.Fuzz(func(t *testing.T, data []byte) {
		checkDecoded(t, data)
		checkDecoded(t, frame(stripHeader(data)))
	})
}

// stripHeader drops an IR header line, if there is one.
func stripHeader(data []byte) []byte {
	if line, body, ok := bytes.Cut(data, []byte{'\n'}); ok && bytes.HasPrefix(line, []byte("srezc-ir ")) {
		return body
	}
	return data
}

// frame writes the header EncodeTask would write for body: magic, format
// version and the SHA-256 of the body. DecodeTask drops one final newline
// before hashing, so frame adds one.
func frame(body []byte) []byte {
	sum := sha256.Sum256(body)
	var b bytes.Buffer
	fmt.Fprintf(&b, "srezc-ir %d %s\n", engine.FormatVersion, hex.EncodeToString(sum[:]))
	b.Write(body)
	b.WriteByte('\n')
	return b.Bytes()
}

func checkDecoded(t *testing.T, data []byte) {
	t.Helper()
	tk, err := engine.DecodeTask(data)
	if err != nil {
		if tk != nil {
			t.Fatalf("DecodeTask returned a task with the error %v", err)
		}
		return
	}
	enc, err := engine.EncodeTask(tk)
	if err != nil {
		t.Fatalf("a decoded task does not encode: %v", err)
	}
	back, err := engine.DecodeTask(enc)
	if err != nil {
		t.Fatalf("the encoding of a decoded task does not decode: %v", err)
	}
	again, err := engine.EncodeTask(back)
	if err != nil {
		t.Fatalf("a decoded task does not encode: %v", err)
	}
	if !bytes.Equal(enc, again) {
		t.Fatalf("decode(encode(task)) differs:\n%s\n%s", enc, again)
	}

	ep := engine.NewEpisode(back)
	var buf []byte
	for _, seed := range []uint64{1, 2} {
		ep.Reset(seed)
		invalid := engine.InvalidAction(engine.ErrSyntax, "not an action")
		for i := 0; i < 3; i++ {
			r := ep.Step(&invalid)
			buf = ep.AppendText(buf[:0], &r.Obs)
		}
		for _, text := range back.Expert {
			a := bind(t, back, text)
			r := ep.Step(&a)
			buf = ep.AppendText(buf[:0], &r.Obs)
		}
		_ = ep.Record()
	}
}
