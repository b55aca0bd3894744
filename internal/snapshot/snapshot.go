// Package snapshot reads the binary episode state that engine's
// MarshalState writes (uvarints, little-endian words and length-prefixed
// bytes). Engine and the sre_zero profile each write their part of one
// snapshot and read it back with the same Reader.
package snapshot

import (
	"encoding/binary"
	"errors"
)

// Reader consumes a snapshot from the front of B. After the first error
// every read returns zero and Err keeps that error, so a decoder reads
// straight through and checks Err once.
type Reader struct {
	B   []byte
	Err error
}

var errTruncated = errors.New("state snapshot is truncated")

// Uvarint reads one unsigned varint.
func (r *Reader) Uvarint() uint64 {
	if r.Err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.B)
	if n <= 0 {
		r.Err = errTruncated
		return 0
	}
	r.B = r.B[n:]
	return x
}

// Word reads one little-endian 64-bit word.
func (r *Reader) Word() uint64 {
	if r.Err != nil {
		return 0
	}
	if len(r.B) < 8 {
		r.Err = errTruncated
		return 0
	}
	x := binary.LittleEndian.Uint64(r.B)
	r.B = r.B[8:]
	return x
}

// Len reads a uvarint that must not exceed limit.
func (r *Reader) Len(limit int) int {
	x := r.Uvarint()
	if x > uint64(limit) {
		r.Err = errors.New("state snapshot has a length out of range")
		return 0
	}
	return int(x)
}

// Bytes reads the next n bytes; they alias the snapshot.
func (r *Reader) Bytes(n int) []byte {
	if r.Err != nil || len(r.B) < n {
		r.Err = errTruncated
		return nil
	}
	x := r.B[:n]
	r.B = r.B[n:]
	return x
}

// Fail records err unless an earlier error is already recorded.
func (r *Reader) Fail(err error) {
	if r.Err == nil {
		r.Err = err
	}
}
