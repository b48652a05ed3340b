package bench

// SoakReport is what `aisle bench --soak` measured: the mixed load's
// highest rate, then the soak at a share of it, window by window, with
// the server's resident set and the growth rule's verdict on it.
type SoakReport struct {
	Seconds     float64 `json:"seconds"` // the soak's length
	Connections int     `json:"connections"`
	// MaxRate is the mix's answered requests a second in a closed-loop
	// run of MaxRateSeconds over the same connections.
	MaxRate        float64 `json:"maxRate"`
	MaxRateSeconds float64 `json:"maxRateSeconds"`
	LoadShare      float64 `json:"loadShare"` // of MaxRate, the soak's Rate
	Rate           float64 `json:"rate"`      // the soak's open-loop requests a second
	// Mix is the kinds of request and how many of every MixOf each is.
	Mix   []SoakShare `json:"mix"`
	MixOf int         `json:"mixOf"`
	// Beside the mix: a partial update of WriteProducts products (price
	// and stock) every WriteEverySeconds, and whole-catalog feed imports.
	WriteEverySeconds float64      `json:"writeEverySeconds"`
	WriteProducts     int          `json:"writeProducts"`
	Imports           []SoakImport `json:"imports"`
	WindowSeconds     float64      `json:"windowSeconds"`
	Windows           []SoakWindow `json:"windows"`
	Total             SoakWindow   `json:"total"`
	Kinds             []SoakKind   `json:"kinds"`
	// Failures counts every failed request (of the mix, a write or an
	// import's batch); Errors holds the first MaxSoakErrors.
	Failures int         `json:"failures"`
	Errors   []SoakError `json:"errors,omitempty"`
	// RSS is the server's resident set every RSSEverySeconds, as
	// RSSSource reads it.
	RSSSource       string      `json:"rssSource"`
	RSSEverySeconds float64     `json:"rssEverySeconds"`
	RSS             []RSSSample `json:"rss"`
	Growth          Growth      `json:"growth"`
	Passed          bool        `json:"passed"` // no failure, and not growing
}

// SoakShare is one kind of request of a soak's mix: Count of every
// SoakReport.MixOf requests.
type SoakShare struct {
	Kind  string `json:"kind"`
	Path  string `json:"path"`
	Count int    `json:"count"`
}

// SoakImport is one feed import during a soak: every product of the
// catalog pushed through the admin API in batches.
type SoakImport struct {
	AtSeconds float64 `json:"atSeconds"` // since the soak's start
	Seconds   float64 `json:"seconds"`   // until the last batch was answered
	Products  int     `json:"products"`
	Batches   int     `json:"batches"`
}

// SoakWindow is a window of a soak's time (or the whole soak): the mix's
// requests due in it, those that failed, their latency from when each
// was due, the admin writes answered, and the largest resident set
// sampled.
type SoakWindow struct {
	FromSeconds float64 `json:"fromSeconds"`
	ToSeconds   float64 `json:"toSeconds"`
	Requests    int     `json:"requests"`
	Errors      int     `json:"errors"`
	Writes      int     `json:"writes"`
	P50ms       float64 `json:"p50ms"`
	P99ms       float64 `json:"p99ms"`
	RSSBytes    int64   `json:"rssBytes"`
}

// SoakKind is one kind of request over a whole soak.
type SoakKind struct {
	Kind     string  `json:"kind"`
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	P50ms    float64 `json:"p50ms"`
	P99ms    float64 `json:"p99ms"`
}

// SoakError is a failed request: status 0 for a transport error, whose
// text is Body.
type SoakError struct {
	Seconds float64 `json:"s"` // when it was due, since the soak's start
	Kind    string  `json:"kind"`
	Status  int     `json:"status"`
	Body    string  `json:"body"`
}
