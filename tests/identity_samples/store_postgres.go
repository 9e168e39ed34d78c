package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ErrConflict is returned when a row changed under us.
var ErrConflict = errors.New("store: conflict")

const listQuery = `
SELECT id, email, created_at
  FROM users
 WHERE deleted_at IS NULL
 ORDER BY id
 LIMIT $1`

// User is one account.
type User struct {
	ID        int64
	Email     string
	CreatedAt time.Time
}

// Querier is what *sql.DB and *sql.Tx have in common.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// Postgres stores users in PostgreSQL.
type Postgres struct {
	db      Querier
	timeout time.Duration
}

// NewPostgres returns a store with a default timeout.
func NewPostgres(db Querier) *Postgres {
	return &Postgres{db: db, timeout: 5 * time.Second}
}

// List returns up to limit users.
func (p *Postgres) List(ctx context.Context, limit int) ([]User, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	rows, err := p.db.QueryContext(ctx, listQuery, limit)
	if err != nil {
		return nil, fmt.Errorf("list users: %w", err)
	}
	defer rows.Close()
	var users []User
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Email, &u.CreatedAt); err != nil {
			return nil, err
		}
		users = append(users, u)
	}
	return users, rows.Err()
}

// Delete marks a user deleted.
func (p *Postgres) Delete(ctx context.Context, id int64) error {
	res, err := p.db.ExecContext(ctx, `UPDATE users SET deleted_at = now() WHERE id = $1`, id)
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	switch {
	case err != nil:
		return err
	case n == 0:
		return ErrConflict
	default:
		return nil
	}
}

func (p *Postgres) String() string {
	return fmt.Sprintf("postgres(timeout=%s)", p.timeout)
}

// Map applies f to every element.
func Map[T, U any](items []T, f func(T) U) []U {
	out := make([]U, 0, len(items))
	for _, item := range items {
		out = append(out, f(item))
	}
	return out
}

type contextKey int

const (
	requestIDKey contextKey = iota
	userKey
)

func init() {
	_ = requestIDKey
}
