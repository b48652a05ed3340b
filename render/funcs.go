package render

import (
	"fmt"
	"html/template"
	"reflect"
	"strings"
)

// funcsFor are the functions a template sees, each bound to render r: the
// shop's helpers (dict, join, money, urlWith) and text/template's
// builtins that make text (print, printf, println, html, js, urlquery),
// which count what they make against r's budget and refuse, before
// making it, what would pass it. Nothing else in a template makes a value
// larger than its data: the other builtins compare, index or slice.
func funcsFor(r *run) template.FuncMap {
	// made runs f when up to bound more bytes fit r's budget and counts
	// what it made.
	made := func(bound int, f func() string) (string, error) {
		if err := r.room(bound); err != nil {
			return "", err
		}
		s := f()
		r.spend(len(s))
		return s, nil
	}
	args := func(a []any) int { return argsSize(a, r.lim.bytes) }
	return template.FuncMap{
		"dict": func(kv ...any) (dictMap, error) {
			if len(kv)%2 != 0 {
				return nil, fmt.Errorf("dict: odd number of arguments")
			}
			m := make(dictMap, len(kv)/2)
			for i := 0; i < len(kv); i += 2 {
				k, ok := kv[i].(string)
				if !ok {
					return nil, fmt.Errorf("dict: key %v is not a string", kv[i])
				}
				// A dict holding dicts could hold one many times over, at
				// every level: printed (as every action's value is before
				// it is escaped) it would be far larger than what made it.
				if _, ok := kv[i+1].(dictMap); ok {
					return nil, fmt.Errorf("dict: the value of %q is a dict: dicts do not nest", k)
				}
				m[k] = kv[i+1]
			}
			// Nor may one value, held many times, print too large.
			if printSize(reflect.ValueOf(m), r.lim.bytes) > r.lim.bytes {
				return nil, r.stop(fmt.Errorf("%w: dict prints more than %d bytes", ErrTooLarge, r.lim.bytes))
			}
			return m, r.tick()
		},
		"join": func(elems []string, sep string) (string, error) {
			n := len(sep) * len(elems)
			for _, e := range elems {
				n += len(e)
			}
			return made(n, func() string { return strings.Join(elems, sep) })
		},
		"money": func(amount any, currency string) (string, error) {
			return made(args([]any{amount})+len(currency)+512, func() string { return money(amount, currency) })
		},
		"urlWith": func(u, name, value string) (string, error) {
			return made(3*(len(u)+len(name)+len(value))+2, func() string { return urlWith(u, name, value) })
		},
		"print": func(a ...any) (string, error) {
			return made(args(a)+len(a), func() string { return fmt.Sprint(a...) })
		},
		"println": func(a ...any) (string, error) {
			return made(args(a)+len(a)+1, func() string { return fmt.Sprintln(a...) })
		},
		"printf": func(format string, a ...any) (string, error) {
			return made(printfSize(format, a, r.lim.bytes), func() string { return fmt.Sprintf(format, a...) })
		},
		// An escaper writes at most 6 bytes for one (js: \u003C).
		"html": func(a ...any) (string, error) {
			return made(6*(args(a)+len(a)), func() string { return template.HTMLEscaper(a...) })
		},
		"js": func(a ...any) (string, error) {
			return made(6*(args(a)+len(a)), func() string { return template.JSEscaper(a...) })
		},
		"urlquery": func(a ...any) (string, error) {
			return made(6*(args(a)+len(a)), func() string { return template.URLQueryEscaper(a...) })
		},
	}
}

// dictMap is what dict makes: a map, which templates index and range
// over as any other, told from the data's maps so dicts do not nest.
type dictMap map[string]any

// argsSize is printSize of each of a, summed.
func argsSize(a []any, limit int) int {
	n := 0
	for _, v := range a {
		n += printSize(reflect.ValueOf(v), limit-n)
		if n > limit {
			break
		}
	}
	return n
}

// printSize bounds the bytes fmt prints for v with %v or %+v; once the
// count passes limit it stops and returns more than limit. Every value
// counts at least one byte, so the walk visits limit values at most,
// however often a value is reached again through maps that share it.
// A type with its own String or Error method prints what it likes: it
// counts as more than limit (the data templates see has none).
func printSize(v reflect.Value, limit int) int {
	if limit < 0 {
		return 1
	}
	if !v.IsValid() {
		return 5 // <nil>
	}
	if t := v.Type(); v.Kind() != reflect.Interface && (t.Implements(stringerType) || t.Implements(errorType) || t.Implements(formatterType)) {
		return limit + 1
	}
	switch v.Kind() {
	case reflect.Bool:
		return 5
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return 24
	case reflect.Complex64, reflect.Complex128:
		return 52
	case reflect.String:
		return max(1, v.Len())
	case reflect.Interface:
		if v.IsNil() {
			return 5
		}
		return printSize(v.Elem(), limit)
	case reflect.Pointer:
		if v.IsNil() {
			return 5
		}
		return 20 + printSize(v.Elem(), limit-20) // &{...} at the top, an address below
	case reflect.Slice, reflect.Array:
		n := 2
		for i := 0; i < v.Len() && n <= limit; i++ {
			n += 1 + printSize(v.Index(i), limit-n-1)
		}
		return n
	case reflect.Map:
		n := 5
		for it := v.MapRange(); it.Next() && n <= limit; {
			n += 2 + printSize(it.Key(), limit-n-2)
			n += printSize(it.Value(), limit-n)
		}
		return n
	case reflect.Struct:
		n := 2
		t := v.Type()
		for i := 0; i < v.NumField() && n <= limit; i++ {
			n += 2 + len(t.Field(i).Name) + printSize(v.Field(i), limit-n-2-len(t.Field(i).Name))
		}
		return n
	}
	return 20 // a func, a channel: an address
}

var (
	stringerType  = reflect.TypeFor[fmt.Stringer]()
	errorType     = reflect.TypeFor[error]()
	formatterType = reflect.TypeFor[fmt.Formatter]()
)

// printfSize bounds what fmt.Sprintf(format, a...) makes: the format;
// for each verb, the largest argument times its width and precision
// (fmt takes none above a million, and pads each element of a list)
// plus eight (%q, %x and %#v write more than %v, by less than eight
// times); and every argument once more with its type (%!(EXTRA ...)).
func printfSize(format string, a []any, limit int) int {
	largest, all := 0, 0
	for _, v := range a {
		s := printSize(reflect.ValueOf(v), limit)
		largest, all = max(largest, s), all+s
		if all > limit {
			return all
		}
	}
	const million = 1_000_000
	n := len(format) + 8*all + 32*len(a)
	for i := 0; i < len(format) && n <= limit; i++ {
		if format[i] != '%' {
			continue
		}
		width, prec := 0, 0
		num := &width
	verb:
		for i++; i < len(format); i++ {
			c := format[i]
			switch {
			case c >= '0' && c <= '9': // an argument index counts too: more, never less
				*num = min(*num*10+int(c-'0'), million)
			case c == '*':
				*num = million
			case c == '.':
				num = &prec
			case strings.IndexByte("+-# []", c) >= 0:
			default: // the verb
				break verb
			}
		}
		n += (width+prec+8)*largest + 32
	}
	return n
}
