"""Federation numbers: the FFB licence's check digit as a rule over every body of digits, the
ACBL's form, and every typed string either refused by the rule or written back unchanged."""

import string

from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.rules.common import RuleError
from scorekeeper.rules.federations import Federation, MemberRule, federation_number

bodies = st.text(string.digits, min_size=0, max_size=7).filter(lambda body: body.strip("0"))


def weighted_sum(number: str) -> int:
    """Counted from the left: the digit whose distance to the end is even weighs 1, else 2."""
    return sum(int(d) * (1 if (len(number) - 1 - i) % 2 == 0 else 2) for i, d in enumerate(number))


@given(body=bodies)
def test_exactly_one_last_digit_makes_an_ffb_licence_of_any_body(body: str) -> None:
    accepted = []
    for last in string.digits:
        try:
            accepted.append(federation_number(Federation.FFB, body + last))
        except RuleError as error:
            assert error.rule is MemberRule.FFB_CHECK
    assert len(accepted) == 1
    (number,) = accepted
    assert weighted_sum(number) % 10 == 0 and number == (body + number[-1]).lstrip("0")
    assert federation_number(Federation.FFB, "0" + " ".join(number)) == number


@given(body=bodies, place=st.integers(0, 7), shift=st.integers(1, 9))
def test_one_digit_mistyped_in_an_ffb_licence_is_caught_unless_it_is_off_by_five_at_weight_two(
    body: str, place: int, shift: int
) -> None:
    last = next(d for d in string.digits if weighted_sum(body + d) % 10 == 0)
    number = body + last
    place %= len(number)
    wrong = number[:place] + str((int(number[place]) + shift) % 10) + number[place + 1 :]
    weight = 1 if (len(number) - 1 - place) % 2 == 0 else 2
    if not wrong.strip("0"):
        return
    try:
        federation_number(Federation.FFB, wrong)
        caught = False
    except RuleError:
        caught = True
    assert caught == (weight == 1 or shift != 5)


def test_acbl_numbers_have_seven_characters_and_a_life_masters_letter() -> None:
    assert federation_number(Federation.ACBL, " j 123456") == "J123456"
    assert federation_number(Federation.ACBL, "1234567") == "1234567"
    for wrong in ("123456", "12345678", "S123456", "I123456", "12345A7", ""):
        try:
            federation_number(Federation.ACBL, wrong)
        except RuleError as error:
            assert error.rule is MemberRule.ACBL_FORM
        else:
            raise AssertionError(wrong)


@given(federation=st.sampled_from(Federation), typed=st.text(max_size=30))
def test_any_typed_number_is_refused_by_a_rule_or_written_the_same_when_typed_again(
    federation: Federation, typed: str
) -> None:
    try:
        number = federation_number(federation, typed)
    except RuleError as error:
        assert str(error) and error.rule in MemberRule
        return
    assert number and len(number) <= 20 and number.isascii() and " " not in number
    assert federation_number(federation, number) == number
