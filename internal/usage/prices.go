package usage

import "github.com/mcpeval/mcpeval/internal/usage/price"

// Prices are the price tables a run is priced with: package price's dated
// tables, one per provider, with a --prices file's in place of those of
// the providers it names.
type Prices = price.Set

// LoadPrices returns the built-in tables with those of the price file at
// path in place of the built-in tables of the providers it names; an
// empty path returns the built-in tables.
func LoadPrices(path string) (*Prices, error) { return price.Load(path) }
