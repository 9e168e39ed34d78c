package shapes

import "fmt"

type Plain struct{ n int }
type Box[T any] struct{ v T }
type Pair[K comparable, V any] struct {
	k K
	v V
}

func (p Plain) Value() int { return p.n }
func (p *Plain) Set(n int) { p.n = n }
func (Plain) Anonymous() {}
func (*Plain) AnonymousPointer() {}
func (b Box[T]) Get() T { return b.v }
func (b *Box[T]) Put(v T) { b.v = v }
func (p *Pair[K, V]) Key() K { return p.k }
func (p Pair[K, V]) /* a comment */ Val() V { return p.v }
func (
	p *Plain, // a receiver over lines
) Lines() {}

// Not methods of a named type: a qualified type, a slice, two receivers, none.
func (x fmt.Stringer) Qualified() {}
func (s []int) Slice() {}
func (a Plain, b Plain) Two() {}
func () Empty() {}

// Broken code: a missing name, an unclosed receiver, an error inside the receiver.
func (p Plain) () {}
func (p *Plain Broken() {}
func (p @Plain) Odd() {}
func (p Plain) Fine() { fmt.Println(p) }

func plain() {}
