// Package value owns srezc's typed scalar: int, float, bool and string stay
// distinct from the author's source to the agent's observation. cty folds
// every number into one type, so lang converts cty values into Value at decode
// time; the runtime stores the same kinds in its slots.
//
// value imports nothing of the module; every other package may import it.
package value

import (
	"math"
	"strconv"
)

// Kind is the type of a Value.
type Kind uint8

const (
	Null Kind = iota
	Int
	Float
	Bool
	String
)

var kindNames = [...]string{Null: "null", Int: "int", Float: "float", Bool: "bool", String: "string"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(" + strconv.Itoa(int(k)) + ")"
}

// ParseKind maps a type name as authors write it to a Kind.
func ParseKind(name string) (Kind, bool) {
	switch name {
	case "int":
		return Int, true
	case "float", "number":
		return Float, true
	case "bool":
		return Bool, true
	case "string":
		return String, true
	}
	return Null, false
}

// Numeric reports whether values of k take part in arithmetic.
func (k Kind) Numeric() bool { return k == Int || k == Float }

// Value is one typed scalar. The zero Value is null.
type Value struct {
	K Kind
	I int64
	F float64
	B bool
	S string
}

func OfInt(i int64) Value     { return Value{K: Int, I: i} }
func OfFloat(f float64) Value { return Value{K: Float, F: f} }
func OfBool(b bool) Value     { return Value{K: Bool, B: b} }
func OfString(s string) Value { return Value{K: String, S: s} }

// AsFloat is the numeric value of an int or float, and 0 otherwise.
func (v Value) AsFloat() float64 {
	switch v.K {
	case Int:
		return float64(v.I)
	case Float:
		return v.F
	}
	return 0
}

// Equal is native equality: kinds must match, so 0 ≠ 0.0 and 1 ≠ true.
func (v Value) Equal(o Value) bool {
	if v.K != o.K {
		return false
	}
	switch v.K {
	case Int:
		return v.I == o.I
	case Float:
		return v.F == o.F || (math.IsNaN(v.F) && math.IsNaN(o.F))
	case Bool:
		return v.B == o.B
	case String:
		return v.S == o.S
	}
	return true
}

// Less orders values of one kind; across kinds it orders by kind. It gives
// sorted output a total, deterministic order.
func (v Value) Less(o Value) bool {
	if v.K != o.K {
		return v.K < o.K
	}
	switch v.K {
	case Int:
		return v.I < o.I
	case Float:
		return v.F < o.F
	case Bool:
		return !v.B && o.B
	case String:
		return v.S < o.S
	}
	return false
}

// String is the value as an agent sees it and as the action grammar reads
// it back: floats always carry a decimal point so that 50.0 stays a float.
func (v Value) String() string { return string(v.Append(nil)) }

// Append appends the text form of v to dst.
func (v Value) Append(dst []byte) []byte {
	switch v.K {
	case Int:
		return strconv.AppendInt(dst, v.I, 10)
	case Float:
		return AppendFloat(dst, v.F)
	case Bool:
		return strconv.AppendBool(dst, v.B)
	case String:
		return append(dst, v.S...)
	}
	return append(dst, "null"...)
}

// AppendFloat writes f in its shortest form, keeping a decimal point.
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'g', -1, 64)
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' || c == 'n' || c == 'i' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// AppendJSON appends v as a JSON value; non-finite floats become null.
func (v Value) AppendJSON(dst []byte) []byte {
	switch v.K {
	case Float:
		if math.IsNaN(v.F) || math.IsInf(v.F, 0) {
			return append(dst, "null"...)
		}
		return AppendFloat(dst, v.F)
	case String:
		return AppendJSONString(dst, v.S)
	}
	return v.Append(dst)
}

const hexDigits = "0123456789abcdef"

// AppendJSONString appends s as a JSON string literal without allocating.
func AppendJSONString(dst []byte, s string) []byte {
	return appendJSON(dst, s)
}

// AppendJSONBytes is AppendJSONString for bytes.
func AppendJSONBytes(dst []byte, s []byte) []byte {
	return appendJSON(dst, s)
}

// jsonSafe marks the bytes a JSON string holds as they are.
var jsonSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

func appendJSON[T string | []byte](dst []byte, s T) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if jsonSafe[c] {
			continue
		}
		dst = append(dst, s[start:i]...)
		start = i + 1
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
		case c == '\n':
			dst = append(dst, '\\', 'n')
		case c == '\t':
			dst = append(dst, '\\', 't')
		case c == '\r':
			dst = append(dst, '\\', 'r')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// Bits is the payload of v as one word, for hashing.
func (v Value) Bits() uint64 {
	switch v.K {
	case Int:
		return uint64(v.I)
	case Float:
		return math.Float64bits(v.F)
	case Bool:
		if v.B {
			return 1
		}
	}
	return 0
}
