package demo

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/aisle-search/aisle/catalog"
	"github.com/aisle-search/aisle/config"
)

// The second demo website: a small Danish home and garden shop, stemmed
// as Danish, so `aisle demo` shows two websites kept apart in one server.
const (
	DanishUUID     = "00000000-0000-4000-8000-000000000002"
	danishKey      = "demo-da"
	danishURL      = "https://butik.aisle.shop"
	DanishProducts = 2000 // the catalog `aisle demo` serves
)

// danishLeaf is one product type: its singular and plural (so a search
// for either finds both through the Danish stemmer), its department,
// materials and median price in kroner.
type danishLeaf struct {
	singular, plural string
	dept, cat        string
	materials        []string
	price            float64
}

var danishLeaves = []danishLeaf{
	{"spisebordsstol", "spisebordsstole", "Møbler", "Stole", []string{"eg", "bøg", "valnød"}, 1200},
	{"lænestol", "lænestole", "Møbler", "Stole", []string{"læder", "uld", "hør"}, 4500},
	{"sofa", "sofaer", "Møbler", "Sofaer", []string{"læder", "uld", "velour"}, 9800},
	{"sofabord", "sofaborde", "Møbler", "Borde", []string{"eg", "marmor", "glas"}, 2400},
	{"spisebord", "spiseborde", "Møbler", "Borde", []string{"eg", "ask", "valnød"}, 7200},
	{"reol", "reoler", "Møbler", "Opbevaring", []string{"fyrretræ", "eg", "stål"}, 1900},
	{"loftlampe", "loftlamper", "Belysning", "Lamper", []string{"messing", "glas", "papir"}, 1600},
	{"bordlampe", "bordlamper", "Belysning", "Lamper", []string{"messing", "keramik", "opal"}, 850},
	{"gulvlampe", "gulvlamper", "Belysning", "Lamper", []string{"stål", "messing", "bambus"}, 2100},
	{"lyskæde", "lyskæder", "Belysning", "Udendørs lys", []string{"kobber", "plast"}, 250},
	{"gryde", "gryder", "Køkken", "Gryder og pander", []string{"støbejern", "stål", "kobber"}, 900},
	{"stegepande", "stegepander", "Køkken", "Gryder og pander", []string{"støbejern", "kulstål", "stål"}, 600},
	{"kniv", "knive", "Køkken", "Knive", []string{"stål", "damaskusstål"}, 700},
	{"skærebræt", "skærebrætter", "Køkken", "Knive", []string{"eg", "bambus", "valnød"}, 300},
	{"tallerken", "tallerkener", "Køkken", "Service", []string{"porcelæn", "stentøj"}, 120},
	{"krus", "krus", "Køkken", "Service", []string{"porcelæn", "stentøj", "glas"}, 90},
	{"havestol", "havestole", "Have", "Havemøbler", []string{"teak", "aluminium", "akacie"}, 1100},
	{"parasol", "parasoller", "Have", "Havemøbler", []string{"polyester", "bomuld"}, 1500},
	{"haveslange", "haveslanger", "Have", "Vanding", []string{"gummi", "pvc"}, 350},
	{"vandkande", "vandkander", "Have", "Vanding", []string{"zink", "plast", "kobber"}, 220},
	{"boremaskine", "boremaskiner", "Værktøj", "El-værktøj", []string{"stål"}, 1400},
	{"skruetrækker", "skruetrækkere", "Værktøj", "Håndværktøj", []string{"stål", "krom-vanadium"}, 150},
	{"hammer", "hamre", "Værktøj", "Håndværktøj", []string{"stål", "glasfiber"}, 260},
	{"sav", "save", "Værktøj", "Håndværktøj", []string{"stål"}, 320},
}

var (
	danishColours = []string{"sort", "hvid", "grå", "rød", "blå", "grøn", "natur", "sand"}
	danishBrands  = []string{"Nordlys", "Skovhus", "Havgaard", "Lunde & Søn", "Fjordværk", "Bølge", "Egelund", "Kronborg Design"}
	danishStyles  = []string{"klassisk", "moderne", "nordisk", "robust", "let", "stabelbar", "håndlavet", "kompakt"}
)

// DanishConfig is the Danish website's configuration: language da, one
// search configuration keyed demo-da.
func DanishConfig() config.Website {
	return config.Website{
		UUID:     DanishUUID,
		Name:     "Aisle Demo Butik",
		Language: "da",
		IndexedFields: []config.IndexedField{
			{Name: "brand", Type: config.TypeKeyword},
			{Name: "hierarchies", Type: config.TypeHierarchy},
			{Name: "price", Type: config.TypeNumber, Sortable: true},
			{Name: "inStock", Type: config.TypeBoolean},
			{Name: "isOnSale", Type: config.TypeBoolean},
			{Name: "extraData.color", Type: config.TypeKeyword},
			{Name: "extraData.material", Type: config.TypeKeyword},
			{Name: "title", Type: config.TypeText, Sortable: true},
		},
		Search: []config.SearchConfig{{Key: danishKey, Versions: []config.SearchVersion{{
			ID: 1, Status: config.StatusLive,
			Fields: []config.SearchField{
				{Name: "title", Weight: 5}, {Name: "brand", Weight: 3}, {Name: "hierarchies", Weight: 2},
				{Name: "description", Weight: 1}, {Name: "extraData", Weight: 0.5}, {Name: "productNumber", Weight: 1},
			},
			Facets: []config.Facet{
				{Field: "brand", Type: config.FacetList, Title: "Mærke"},
				{Field: "hierarchies", Type: config.FacetList, Title: "Kategori"},
				{Field: "price", Type: config.FacetRange, Title: "Pris"},
				{Field: "extraData.color", Type: config.FacetList, Title: "Farve"},
				{Field: "inStock", Type: config.FacetBoolean, Title: "På lager", FilteringText: "Kun på lager", NegatedFilteringText: "Vis også udsolgte"},
			},
			Sorting: []config.SortOption{
				{Field: "price", Title: "Pris", AscendingText: "Laveste først", DescendingText: "Højeste først"},
				{Field: "title", Title: "Navn", AscendingText: "A til Å", DescendingText: "Å til A"},
			},
			Synonyms:       []config.Synonym{{Terms: []string{"sofa", "couch"}}, {Terms: []string{"lampe", "lys"}}},
			MaxFacetValues: 50,
		}}}},
	}
}

// EachDanish streams n products of the Danish shop, deterministically
// from seed; fn may keep each. It stops at fn's first error.
func EachDanish(n int, seed uint64, fn func(*catalog.Product) error) error {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	created := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		l := &danishLeaves[r.IntN(len(danishLeaves))]
		brand := danishBrands[r.IntN(len(danishBrands))]
		mat := l.materials[r.IntN(len(l.materials))]
		colour := danishColours[r.IntN(len(danishColours))]
		style := danishStyles[r.IntN(len(danishStyles))]
		price := math.Round(l.price*math.Exp(r.NormFloat64()*0.35)/5)*5 - 0.05
		p := &catalog.Product{
			ProductNumber: fmt.Sprintf("DK-%05d", i+1),
			Title:         fmt.Sprintf("%s %s %s i %s, %s", brand, style, l.singular, mat, colour),
			URL:           fmt.Sprintf("%s/p/dk-%05d", danishURL, i+1),
			Currency:      "DKK",
			Price:         price,
			Description: fmt.Sprintf("%s %s i %s fra %s. Vores %s er lavet til hverdagen og holder i mange år.",
				strings.ToUpper(style[:1])+style[1:], l.singular, mat, brand, l.plural),
			InStock:     r.Float64() < 0.85,
			Brand:       brand,
			Hierarchies: [][]string{{l.dept, l.cat}},
			Created:     created.Add(time.Duration(r.IntN(600*24)) * time.Hour),
			ExtraData:   map[string]string{"color": colour, "material": mat},
		}
		p.PriceFormatted = strings.Replace(fmt.Sprintf("%.2f kr.", price), ".", ",", 1)
		if r.Float64() < 0.2 {
			p.IsOnSale, p.PriceLowered = true, true
			p.PreviousPrice = math.Round(price*1.25) - 0.05
		}
		if err := fn(p); err != nil {
			return err
		}
	}
	return nil
}

// DanishContent is the Danish shop's categories and brands, so content
// searches show the two websites apart too.
func DanishContent() []catalog.Content {
	var out []catalog.Content
	seen := map[string]bool{}
	for _, l := range danishLeaves {
		for _, path := range [][]string{{l.dept}, {l.dept, l.cat}} {
			id := "kategori:" + slugify(strings.Join(path, " "))
			if seen[id] {
				continue
			}
			seen[id] = true
			out = append(out, catalog.Content{Kind: catalog.KindCategory, ID: id, Title: path[len(path)-1],
				URL: danishURL + "/k/" + slugify(strings.Join(path, " ")), Hierarchy: path})
		}
	}
	for _, b := range danishBrands {
		out = append(out, catalog.Content{Kind: catalog.KindBrand, ID: "maerke:" + slugify(b), Title: b,
			Description: b + ": dansk design til hjemmet og haven.", URL: danishURL + "/m/" + slugify(b)})
	}
	return out
}
