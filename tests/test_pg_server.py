"""The tests' PostgreSQL databases (``tests/pg.py``): one given back is emptied and renamed for the next test, and
one whose schema a test changed is dropped, so no test sees another's rows, tables or leftover sessions."""

from __future__ import annotations

from typing import Any

import psycopg


def names(server: Any) -> set[str]:
    with psycopg.connect(server.dsn(), autocommit=True) as conn:
        return {row[0] for row in conn.execute("SELECT datname FROM pg_database")}


def test_a_database_given_back_comes_back_empty_under_a_new_name(pg_server: Any) -> None:
    name = pg_server.take_database()
    with psycopg.connect(pg_server.dsn(name), autocommit=True) as conn:
        conn.execute("INSERT INTO game_secrets (game_id, seed) VALUES ('g', 's')")
    left = psycopg.connect(pg_server.dsn(name), autocommit=True)  # a session the test forgot to close
    pg_server.give_back(name)
    assert left.closed or left.broken or _dead(left)
    left.close()
    assert name not in names(pg_server)  # whoever still holds the old address finds no database there
    again = pg_server.take_database()
    assert again != name
    with psycopg.connect(pg_server.dsn(again), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM game_secrets").fetchone()[0] == 0
    pg_server.give_back(again)


def _dead(conn: psycopg.Connection[Any]) -> bool:
    try:
        conn.execute("SELECT 1")
    except psycopg.OperationalError:
        return True
    return False


def test_a_database_whose_schema_changed_is_dropped(pg_server: Any) -> None:
    name = pg_server.take_database()
    with psycopg.connect(pg_server.dsn(name), autocommit=True) as conn:
        conn.execute("ALTER TABLE game_secrets ADD COLUMN extra TEXT")
    before = names(pg_server)
    pg_server.give_back(name)
    after = names(pg_server)
    assert name not in after and len(after) == len(before) - 1  # dropped, not renamed
    fresh = pg_server.take_database()
    with psycopg.connect(pg_server.dsn(fresh), autocommit=True) as conn:
        columns = [row[0] for row in conn.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_name = 'game_secrets'")]
    assert "extra" not in columns
    pg_server.give_back(fresh)
