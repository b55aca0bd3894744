package value

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The sre_zero profile reproduces a Python reference, so it needs Python's
// own conversions and equality: int() and float() of a string, str() and
// repr() of a value, and ==. They live here because both the profile's
// action parser (lang) and its grader (runtime) use them.

// ParsePyInt is Python's int(s) for a string: surrounding whitespace, an
// optional sign, decimal digits with single underscores between them.
func ParsePyInt(s string) (int64, bool) {
	s = strings.TrimFunc(s, IsPySpace)
	if s == "" {
		return 0, false
	}
	body := s
	if body[0] == '+' || body[0] == '-' {
		body = body[1:]
	}
	if !underscoredDigits(body) {
		return 0, false
	}
	i, err := strconv.ParseInt(strings.ReplaceAll(s, "_", ""), 10, 64)
	if err != nil {
		// Python ints are unbounded; the values an action can carry are
		// not, and a number beyond int64 is read as no int at all (the
		// reference then tries float()).
		return 0, false
	}
	return i, true
}

// underscoredDigits reports whether s is digits with single underscores
// between digits.
func underscoredDigits(s string) bool {
	if s == "" {
		return false
	}
	prevDigit := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			prevDigit = true
		case c == '_' && prevDigit && i+1 < len(s):
			prevDigit = false
		default:
			return false
		}
	}
	return prevDigit
}

// ParsePyFloat is Python's float(s) for a string: surrounding whitespace,
// a decimal or exponent literal with single underscores between digits,
// and "nan", "inf", "infinity" in any case with an optional sign.
func ParsePyFloat(s string) (float64, bool) {
	s = strings.TrimFunc(s, IsPySpace)
	if s == "" {
		return 0, false
	}
	body, sign := s, 1.0
	if body[0] == '+' || body[0] == '-' {
		if body[0] == '-' {
			sign = -1
		}
		body = body[1:]
	}
	switch strings.ToLower(body) {
	case "nan":
		return math.NaN(), true
	case "inf", "infinity":
		return math.Inf(int(sign)), true
	}
	// digits [. digits] [e [sign] digits], or . digits; underscores only
	// between digits.
	mant, exp, hasExp := body, "", false
	if i := strings.IndexAny(body, "eE"); i >= 0 {
		mant, exp, hasExp = body[:i], body[i+1:], true
	}
	intPart, frac, hasDot := mant, "", false
	if i := strings.IndexByte(mant, '.'); i >= 0 {
		intPart, frac, hasDot = mant[:i], mant[i+1:], true
	}
	if intPart == "" && frac == "" {
		return 0, false
	}
	if intPart != "" && !underscoredDigits(intPart) || frac != "" && !underscoredDigits(frac) {
		return 0, false
	}
	if !hasDot && intPart == "" {
		return 0, false
	}
	if hasExp {
		e := exp
		if e != "" && (e[0] == '+' || e[0] == '-') {
			e = e[1:]
		}
		if !underscoredDigits(e) {
			return 0, false
		}
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
	if err != nil {
		// Out of range: Python gives inf for an overflowing literal
		// and 0 for an underflowing one, as does ParseFloat's value.
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return f, true
		}
		return 0, false
	}
	return f, true
}

// PyFloatRepr is Python's repr(float): the shortest round-trip digits, in
// positional form when the decimal exponent is in [-4, 16), else in
// exponent form with a sign and at least two exponent digits; a float that
// prints as a whole number keeps ".0".
func PyFloatRepr(f float64) string { return string(AppendPyFloat(nil, f)) }

// AppendPyFloat appends PyFloatRepr(f) to dst.
func AppendPyFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		return append(dst, "-inf"...)
	}
	// 'e' with shortest precision gives the digits and the exponent.
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64)
	neg := e[0] == '-'
	if neg {
		e = e[1:]
	}
	mant, expText, _ := strings.Cut(string(e), "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if neg {
		dst = append(dst, '-')
	}
	if exp >= -4 && exp < 16 {
		if exp < 0 {
			dst = append(dst, "0."...)
			for i := 0; i < -exp-1; i++ {
				dst = append(dst, '0')
			}
			return append(dst, digits...)
		}
		if len(digits) <= exp+1 {
			dst = append(dst, digits...)
			for i := len(digits); i < exp+1; i++ {
				dst = append(dst, '0')
			}
			return append(dst, ".0"...)
		}
		dst = append(dst, digits[:exp+1]...)
		dst = append(dst, '.')
		return append(dst, digits[exp+1:]...)
	}
	dst = append(dst, digits[0])
	if len(digits) > 1 {
		dst = append(dst, '.')
		dst = append(dst, digits[1:]...)
	}
	dst = append(dst, 'e')
	if exp < 0 {
		dst = append(dst, '-')
		exp = -exp
	} else {
		dst = append(dst, '+')
	}
	if exp < 10 {
		dst = append(dst, '0')
	}
	return strconv.AppendInt(dst, int64(exp), 10)
}

// PyStr is Python's str() of a config value: True/False, decimal ints,
// repr of floats, strings as they are, None for null.
func PyStr(v Value) string {
	switch v.K {
	case Int:
		return strconv.FormatInt(v.I, 10)
	case Float:
		return PyFloatRepr(v.F)
	case Bool:
		if v.B {
			return "True"
		}
		return "False"
	case String:
		return v.S
	}
	return "None"
}

// PyEqual is Python's == between config values: bools are the ints 0 and
// 1, ints and floats compare by value (NaN equals nothing), strings equal
// only strings, None only None.
func PyEqual(a, b Value) bool {
	an, aNum := pyNumber(a)
	bn, bNum := pyNumber(b)
	switch {
	case aNum && bNum:
		if a.K != Float && b.K != Float {
			return pyInt(a) == pyInt(b)
		}
		return an == bn
	case aNum || bNum:
		return false
	}
	return a.K == b.K && (a.K != String || a.S == b.S)
}

func pyNumber(v Value) (float64, bool) {
	switch v.K {
	case Int:
		return float64(v.I), true
	case Float:
		return v.F, true
	case Bool:
		if v.B {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

func pyInt(v Value) int64 {
	if v.K == Bool {
		if v.B {
			return 1
		}
		return 0
	}
	return v.I
}

// PyFloatOf is Python's float(v) for a config value: ints and bools
// convert, strings parse as float() does; ok is false where Python raises.
func PyFloatOf(v Value) (float64, bool) {
	if f, ok := pyNumber(v); ok {
		return f, true
	}
	if v.K == String {
		return ParsePyFloat(v.S)
	}
	return 0, false
}

// IsPySpace is Python's str.isspace() for one character, which is also
// what re's \s, str.strip() and str.split() use: Go's unicode.IsSpace plus
// the ASCII separators U+001C..U+001F.
func IsPySpace(r rune) bool {
	if r < utf8.RuneSelf {
		switch r {
		case ' ', '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
			return true
		}
		return false
	}
	return unicode.IsSpace(r)
}
