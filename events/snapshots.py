"""Snapshots as pickles that name the game's data by its digest instead of carrying it.

A game's state holds its data (``GameConfig.data``: every card, city and number, 13-18 KB) and
usually an index made from it (a catalog). Pickled whole, they were nine tenths of every snapshot
(about 40 KB for A Study in Emerald, against 2 KB of position), written every few moves and read
back on every load. The data is already stored once per instance by its digest (``events.gamedata``),
so a snapshot names it by that digest: the game's configuration is pickled as its seats, its options
and the digest, and an object a game declares as made from its data alone (``MadeFromData``) as the
digest too; reading the snapshot asks the store for the data (once per process) and makes the index
again (once per process and digest).

Data the store cannot give back by its digest (a game recorded before ``events.gamedata`` keeps its
data inline) is pickled whole, as before. A snapshot is a cache: one that cannot be read is passed over.
"""

from __future__ import annotations

import copyreg
import io
import pickle
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from events.gamedata import MissingData, digest_of
from events.rules import GameConfig

PROTOCOL = pickle.HIGHEST_PROTOCOL
_MEMO_LIMIT = 256  # data objects and made objects remembered (a few per game type and override)


@dataclass(frozen=True)
class MadeFromData:
    """A type whose objects a game makes from its data alone (its catalog): a snapshot names them by the data.

    ``data`` gives the data an object was made of; ``make`` makes an equal object from data.
    """

    type: type
    data: Callable[[Any], Mapping[str, Any]]
    make: Callable[[Mapping[str, Any]], Any]

    @property
    def key(self) -> str:
        return f"{self.type.__module__}.{self.type.__qualname__}"


def _config_by_digest(seats: Any, options: Any, digest: str) -> GameConfig:
    """Stands in the pickle for a configuration named by its data's digest; ``SnapshotCodec.loads`` reads it."""
    raise pickle.UnpicklingError("a snapshot that names its data by digest is read by SnapshotCodec.loads")


def _made_by_digest(key: str, digest: str) -> Any:
    """Stands in the pickle for an object made from data named by its digest; ``SnapshotCodec.loads`` reads it."""
    raise pickle.UnpicklingError("a snapshot that names its data by digest is read by SnapshotCodec.loads")


class SnapshotCodec:
    """Pickles states with their data named by digest, and reads them back with the data from ``data_of``."""

    def __init__(self, data_of: Callable[[str], Mapping[str, Any]] | None) -> None:
        self.data_of = data_of
        self._digests: dict[int, tuple[object, str | None]] = {}  # id(data) -> (data, its digest if stored)
        self._made: dict[tuple[str, str], Any] = {}
        self._tables: dict[tuple[MadeFromData, ...], dict[Any, Any]] = {}

    def dumps(self, state: Any, made: Sequence[MadeFromData] = ()) -> bytes:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=PROTOCOL)
        pickler.dispatch_table = self._table(tuple(made))
        pickler.dump(state)
        return buffer.getvalue()

    def loads(self, blob: bytes, made: Sequence[MadeFromData] = ()) -> Any:
        return _Unpickler(io.BytesIO(blob), self, {m.key: m for m in made}).load()

    # ---- writing ---------------------------------------------------------------------------

    def _table(self, made: tuple[MadeFromData, ...]) -> dict[Any, Any]:
        table = self._tables.get(made)
        if table is None:
            table = dict(copyreg.dispatch_table)
            table[GameConfig] = self._reduce_config
            for each in made:
                table[each.type] = self._reducer(each)
            self._tables[made] = table
        return table

    def _reduce_config(self, config: GameConfig) -> Any:
        digest = self._stored(config.data)
        if digest is None:
            return GameConfig, (config.seats, config.options, config.data)
        return _config_by_digest, (config.seats, config.options, digest)

    def _reducer(self, made: MadeFromData) -> Callable[[Any], Any]:
        def reduce(obj: Any) -> Any:
            digest = self._stored(made.data(obj))
            if digest is None:
                return obj.__reduce_ex__(PROTOCOL)
            return _made_by_digest, (made.key, digest)
        return reduce

    def _stored(self, data: Mapping[str, Any]) -> str | None:
        """The digest of ``data`` if the store gives it back by that digest, else None (remembered per object)."""
        known = self._digests.get(id(data))
        if known is not None and known[0] is data:
            return known[1]
        digest: str | None = digest_of(data) if data else None
        if digest is not None:
            try:
                if self.data_of is None:
                    raise MissingData(digest)
                self.data_of(digest)
            except MissingData:
                digest = None
        if len(self._digests) >= _MEMO_LIMIT:
            self._digests.clear()
        self._digests[id(data)] = (data, digest)  # the object is kept, so its id is not reused meanwhile
        return digest

    # ---- reading ---------------------------------------------------------------------------

    def config(self, seats: Any, options: Any, digest: str) -> GameConfig:
        assert self.data_of is not None  # a digest was written only where data_of gave it back
        return GameConfig(seats, options, self.data_of(digest))

    def made(self, types: Mapping[str, MadeFromData], key: str, digest: str) -> Any:
        found = self._made.get((key, digest))
        if found is None:
            if key not in types or self.data_of is None:
                raise pickle.UnpicklingError(f"no way to make {key} from data here")
            found = types[key].make(self.data_of(digest))
            if len(self._made) >= _MEMO_LIMIT:
                self._made.clear()
            self._made[(key, digest)] = found
        return found


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, codec: SnapshotCodec, types: Mapping[str, MadeFromData]) -> None:
        super().__init__(file)
        self.codec = codec
        self.types = types

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_config_by_digest":
            return self.codec.config
        if module == __name__ and name == "_made_by_digest":
            return lambda key, digest: self.codec.made(self.types, key, digest)
        return super().find_class(module, name)
