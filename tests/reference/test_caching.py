import gc
import weakref

from reference.caching import IdentityCache


class Thing:
    pass


def test_a_value_is_made_once_for_the_same_objects_and_anew_for_others() -> None:
    cache: IdentityCache[list[int]] = IdentityCache(10)
    first, second = Thing(), Thing()
    made = cache.get(lambda: [1], first, second)
    assert cache.get(lambda: [2], first, second) is made
    assert cache.get(lambda: [3], second, first) == [3]


def test_the_objects_stay_alive_while_their_value_is_kept_so_no_id_names_another() -> None:
    cache: IdentityCache[str] = IdentityCache(1)
    thing = Thing()
    alive = weakref.ref(thing)
    cache.get(lambda: "kept", thing)
    del thing
    gc.collect()
    assert alive() is not None
    cache.get(lambda: "next", Thing())  # the first value goes: its object may go too
    gc.collect()
    assert alive() is None


def test_the_least_recently_used_values_go_first_once_their_weight_passes_the_limit() -> None:
    cache: IdentityCache[str] = IdentityCache(5, weight=len)
    a, b, c = Thing(), Thing(), Thing()
    cache.get(lambda: "aa", a)
    cache.get(lambda: "bb", b)
    cache.get(lambda: "again", a)  # a hit: a is now the most recently used
    cache.get(lambda: "cc", c)
    assert len(cache) == 2
    assert cache.get(lambda: "cx", c) == "cc"
    assert cache.get(lambda: "bx", b) == "bx"  # b went
