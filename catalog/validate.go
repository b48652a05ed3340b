package catalog

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Limits of a product's members, far past what a real shop's product
// has, so a broken feed row is refused rather than indexed.
const (
	// MaxTitleBytes caps a title: product titles run to a few hundred
	// bytes (marketplaces cut them at 200 characters).
	MaxTitleBytes = 4 << 10
	// MaxPrice caps price and previousPrice: ten trillion units is past
	// any product's price even in a currency of a million units to the
	// dollar, and below 2^53/100, so a price's cents stay exact.
	MaxPrice = 1e13
)

// Validate checks one product before it is stored, naming the field at
// fault, so a bad feed row is reported rather than indexed.
func (p *Product) Validate() error {
	switch {
	case p.ProductNumber == "":
		return fieldError("productNumber", "is required")
	case p.Title == "":
		return fieldError("title", "is required")
	case len(p.Title) > MaxTitleBytes:
		return fieldError("title", "is %d bytes long: at most %d", len(p.Title), MaxTitleBytes)
	case !validPrice(p.Price):
		return fieldError("price", "must be a number from 0 to %g, got %v", float64(MaxPrice), p.Price)
	case !validPrice(p.PreviousPrice):
		return fieldError("previousPrice", "must be a number from 0 to %g, got %v", float64(MaxPrice), p.PreviousPrice)
	}
	for i, h := range p.Hierarchies {
		if len(h) == 0 {
			return fieldError(fmt.Sprintf("hierarchies[%d]", i), "is an empty path")
		}
		for j, level := range h {
			if strings.TrimSpace(level) == "" {
				return fieldError(fmt.Sprintf("hierarchies[%d][%d]", i, j), "is empty")
			}
			if strings.Contains(level, "$") {
				return fieldError(fmt.Sprintf("hierarchies[%d][%d]", i, j), "must not contain $ (the hierarchy filter separator)")
			}
		}
	}
	for k := range p.ExtraData {
		if err := checkKey("extraData", k); err != nil {
			return err
		}
	}
	for k, v := range p.ExtraDataNumber {
		if err := checkKey("extraDataNumber", k); err != nil {
			return err
		}
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return fieldError("extraDataNumber."+k, "must be a finite number")
		}
	}
	for k := range p.ExtraDataList {
		if err := checkKey("extraDataList", k); err != nil {
			return err
		}
	}
	return nil
}

// validPrice reports whether v is a price Validate takes: 0 to MaxPrice
// (NaN is neither).
func validPrice(v float64) bool { return v >= 0 && v <= MaxPrice }

func checkKey(obj, k string) error {
	if k == "" || strings.Contains(k, ".") {
		return fieldError(obj, "key %q must be non-empty and without '.'", k)
	}
	return nil
}

// FieldError names the product field a problem is about.
type FieldError struct {
	Field   string
	Message string
}

func (e *FieldError) Error() string { return fmt.Sprintf("field %q: %s", e.Field, e.Message) }

func fieldError(field, format string, args ...any) error {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, args...)}
}

// Normalize fills the fields a feed may leave out but results carry:
// priceLowered from the two prices, isOnSale when the price was lowered
// (a feed's true is kept), and priceFormatted when empty. It also trims
// productNumber, title and brand, so Validate sees "  " as missing.
func (p *Product) Normalize() {
	p.ProductNumber = strings.TrimSpace(p.ProductNumber)
	p.Title = strings.TrimSpace(p.Title)
	p.Brand = strings.TrimSpace(p.Brand)
	p.PriceLowered = p.PreviousPrice > p.Price
	if p.PriceLowered {
		p.IsOnSale = true
	}
	if p.PriceFormatted == "" {
		p.PriceFormatted = FormatPrice(p.Price, p.Currency)
	}
}

// FormatPrice writes a price the way shops in its currency do.
func FormatPrice(v float64, currency string) string {
	switch strings.ToUpper(currency) {
	case "USD":
		return "$" + group(v, ',', '.')
	case "GBP":
		return "£" + group(v, ',', '.')
	case "INR":
		return "₹" + group(v, ',', '.')
	case "EUR":
		return group(v, '.', ',') + " €"
	case "DKK", "NOK", "SEK":
		return group(v, '.', ',') + " kr."
	case "":
		return group(v, ',', '.')
	}
	return group(v, ',', '.') + " " + strings.ToUpper(currency)
}

// group formats v with two decimals and a thousands separator.
func group(v float64, thousands, decimal byte) string {
	neg := v < 0
	if neg {
		v = -v
	}
	s := strconv.FormatFloat(v, 'f', 2, 64)
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(thousands)
		}
		b.WriteRune(c)
	}
	b.WriteByte(decimal)
	b.WriteString(frac)
	return b.String()
}

// Check applies the import's rules to one product: Normalize, then
// Validate.
func (p *Product) Check() error {
	p.Normalize()
	return p.Validate()
}

// Checked wraps fn with the import's rules, so every way products come in
// (aisle import, the admin API) takes the same ones: each product is
// normalized and validated before fn sees it, and one that fails is an
// error naming its position in the feed and its number.
func Checked(fn func(*Product) error) func(*Product) error {
	n := 0
	return func(p *Product) error {
		if err := p.Check(); err != nil {
			return fmt.Errorf("product %d (%s): %w", n+1, p.ProductNumber, err)
		}
		n++
		return fn(p)
	}
}
