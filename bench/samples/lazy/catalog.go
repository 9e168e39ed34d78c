// Package catalog keeps the product list and its search index.
package catalog

import (
	"errors"
	"sort"
	"strings"
	"sync"
)

// ErrNotFound is returned when a product id is unknown.
var ErrNotFound = errors.New("catalog: product not found")

type Product struct {
	ID    string
	Name  string
	Price int
	Tags  []string
}

type Catalog struct {
	mu       sync.RWMutex
	products map[string]Product
	index    map[string][]string
}

func New() *Catalog {
	c := &Catalog{}
	c.products = make(map[string]Product)
	c.index = make(map[string][]string)
	return c
}

// Add stores a product and indexes the words of its name.
func (c *Catalog) Add(p Product) error {
	if p.ID == "" {
		return errors.New("catalog: empty id")
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.products[p.ID] = p
	for _, word := range strings.Fields(strings.ToLower(p.Name)) {
		c.index[word] = append(c.index[word], p.ID)
	}
	return nil
}

func (c *Catalog) Get(id string) (Product, error) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	p, ok := c.products[id]
	if !ok {
		return Product{}, ErrNotFound
	}
	return p, nil
}

// Search returns the products whose name holds every word of the query, cheapest first.
func (c *Catalog) Search(query string) []Product {
	c.mu.RLock()
	defer c.mu.RUnlock()
	words := strings.Fields(strings.ToLower(query))
	counts := make(map[string]int)
	for _, word := range words {
		for _, id := range c.index[word] {
			counts[id]++
		}
	}
	found := []Product{}
	for id, n := range counts {
		if n == len(words) {
			found = append(found, c.products[id])
		}
	}
	sort.Slice(found, func(i, j int) bool { return found[i].Price < found[j].Price })
	return found
}

func (c *Catalog) Remove(id string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.products[id]; !ok {
		return ErrNotFound
	}
	delete(c.products, id)
	return nil
}

func Tagged(products []Product, tag string) []Product {
	found := []Product{}
	wanted := strings.ToLower(tag)
	for _, p := range products {
		for _, t := range p.Tags {
			if strings.ToLower(t) == wanted {
				found = append(found, p)
			}
		}
	}
	return found
}
