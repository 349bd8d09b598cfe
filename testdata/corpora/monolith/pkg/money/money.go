// Package money formats and converts amounts held in minor units.
package money

import (
	"fmt"
	"strings"
)

var exponents = map[string]int{"JPY": 0, "KRW": 0, "BHD": 3, "KWD": 3}

// Exponent returns the number of minor-unit digits of a currency.
func Exponent(currency string) int {
	if e, ok := exponents[strings.ToUpper(currency)]; ok {
		return e
	}
	return 2
}

// Format renders an amount, e.g. Format(12345, "EUR") == "123.45 EUR".
func Format(minor int64, currency string) string {
	e := Exponent(currency)
	if e == 0 {
		return fmt.Sprintf("%d %s", minor, currency)
	}
	div := int64(1)
	for i := 0; i < e; i++ {
		div *= 10
	}
	sign := ""
	if minor < 0 {
		sign, minor = "-", -minor
	}
	return fmt.Sprintf("%s%d.%0*d %s", sign, minor/div, e, minor%div, currency)
}

// Scale applies a rate to an amount, rounding half away from zero.
func Scale(minor int64, rate float64) int64 {
	v := float64(minor) * rate
	if v < 0 {
		return int64(v - 0.5)
	}
	return int64(v + 0.5)
}

// ApplyPercentOff reduces an amount by pct percent.
func ApplyPercentOff(minor int64, pct int32) int64 {
	return minor - minor*int64(pct)/100
}
