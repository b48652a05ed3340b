package config

import (
	"fmt"
	"net/url"
	"strings"
)

// checkOrigin accepts a web origin as browsers send it in the Origin
// header: http or https, a host, a port when not the scheme's default,
// and nothing else (no path, query, user or trailing slash), in lower
// case, so it is compared byte for byte.
func checkOrigin(o string) error {
	u, err := url.Parse(o)
	want := fmt.Errorf("%q is not an origin: want a scheme and a host, as https://shop.example or http://localhost:8080", o)
	switch {
	case err != nil || u.Host == "" || u.Opaque != "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return want
	case u.Scheme != "http" && u.Scheme != "https":
		return want
	case u.Scheme+"://"+u.Host != o || strings.ToLower(o) != o:
		return want
	case u.Port() == "80" && u.Scheme == "http", u.Port() == "443" && u.Scheme == "https":
		return fmt.Errorf("%q: leave out the scheme's default port, as browsers do", o)
	}
	return nil
}
