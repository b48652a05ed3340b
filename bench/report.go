package bench

// Report is what `aisle bench` measured, as its --json writes it: the
// import, the `aisle serve` process the HTTP runs load, and each query
// class in process and over HTTP; with --hostile, what each hostile body
// cost the server instead of the classes; with --soak, the soak instead
// of the import and the classes.
type Report struct {
	Catalog     string        `json:"catalog"`
	Products    int           `json:"products"`
	Machine     string        `json:"machine"`
	Import      ImportReport  `json:"import"`
	Serve       ServeReport   `json:"serve"`
	Classes     []ClassReport `json:"classes"`
	NDCG        float64       `json:"ndcg10,omitempty"`
	NDCGTerms   int           `json:"ndcgTerms,omitempty"`
	Concurrent  int           `json:"concurrency"`
	P99LimitMs  float64       `json:"p99LimitMs"`
	HTTPSeconds float64       `json:"httpSecondsPerRun"`
	// Hostile is what each hostile body cost the server (--hostile).
	Hostile []HostileResult `json:"hostile,omitempty"`
	// Soak is the soak (--soak).
	Soak *SoakReport `json:"soak,omitempty"`
	// Replicas is the cluster of three nodes (--replicas).
	Replicas *ReplicasReport `json:"replicas,omitempty"`
}

// ServeReport is the `aisle serve` process the HTTP runs load: started
// on the imported data directory, as a shop would run it.
type ServeReport struct {
	LoadSeconds float64 `json:"loadSeconds"` // start to first answer
	RSSBytes    int64   `json:"rssBytes"`    // resident set once ready and settled (SettledRSS)
	RSSOverJSON float64 `json:"rssOverJSON"`
}

// ClassReport is one query class: in process, then over HTTP.
type ClassReport struct {
	Class     string `json:"class"`
	InProcess Result `json:"inProcess"`
	// Closed loop: Concurrent connections sending as fast as answered.
	HTTPQPS   float64 `json:"httpQPS"`
	HTTPP50ms float64 `json:"httpP50ms"`
	HTTPP95ms float64 `json:"httpP95ms"`
	HTTPP99ms float64 `json:"httpP99ms"`
	Requests  int     `json:"requests"`
	Errors    int     `json:"errors"`
	// ServerShareUs is the p50 of a search minus the p50 of /healthz on
	// one connection, alternating (MeasureServerShare).
	ServerShareUs float64 `json:"serverShareUs"`
	// HealthP50us is that p50 of /healthz. On a machine whose idle cores
	// halt (this project's VM), a round trip either finds the server's
	// core awake (about 10 µs) or waits for it to wake (60 µs or more),
	// and a search that waited runs with its caches cold: the share's
	// p50s fall in one mode or the other, and this says which.
	HealthP50us float64 `json:"healthP50us"`
	// Open loop: the highest rate held with p99 under the limit, and the
	// latency at half that rate.
	MaxRate      float64 `json:"maxRateAtP99Limit,omitempty"`
	MaxRateP99ms float64 `json:"p99AtMaxRateMs,omitempty"`
	HalfP50ms    float64 `json:"p50AtHalfRateMs,omitempty"`
	HalfP99ms    float64 `json:"p99AtHalfRateMs,omitempty"`
}

// PeerReport is what the peer comparison (bench/peers' peerbench, which
// `aisle bench --engines` runs) measured, as its --json writes it: each
// engine's load, then every engine's figures for each query class.
type PeerReport struct {
	Catalog  string       `json:"catalog"`
	Products int          `json:"products"`
	Machine  string       `json:"machine"`
	Date     string       `json:"date"` // YYYY-MM-DD, UTC
	Engines  []PeerEngine `json:"engines"`
	// Skipped names the engines asked for that could not run, and why.
	Skipped []string   `json:"skipped,omitempty"`
	Results [][]Result `json:"results"` // by class, then by engine
}

// PeerEngine is one engine's load figures in a PeerReport.
type PeerEngine struct {
	Engine       string  `json:"engine"`
	BuildSeconds float64 `json:"buildSeconds"`
	DiskBytes    int64   `json:"diskBytes"`
	// MemoryBytes is the server's resident set for engines in their own
	// process, and what an in-process one adds to this process's.
	MemoryBytes int64   `json:"memoryBytes"`
	MemoryKind  string  `json:"memoryKind"`
	NDCG        float64 `json:"ndcg10,omitempty"` // on the suite's judgments, when it has them
}
