"""The time facet of the context pack: the question's time read relative to ``now`` and
matched against the beliefs' due and validity fields (``memory.time_facet``)."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
from django.db import connection
from django.test.utils import CaptureQueriesContext

from memory.context import build_context, past_intent
from memory.services_beliefs import belief_write, intention_write
from memory.time_facet import read_time, time_match
from safety.text import content_words
from tests.memory.beliefs_helpers import DAY, NOW, write_belief


def write(agent, statement, category="projects", who="ana", **kwargs):
    return write_belief(agent, statement, category=category, who=who, **kwargs)


def ask(agent, query, who="ana"):
    # the stand-in vectors are random: these tests rank on words and dates
    pack = build_context(
        agent=agent, principal_external_id=who, query=query, now=NOW, use_embeddings=False
    )
    return [item.id for item in pack.items], pack


def days(span):
    return span[0].date().isoformat(), span[1].date().isoformat()


# --- reading the question's time --------------------------------------------------------


def test_relative_weeks_days_and_counts_are_read_from_now():
    assert days(read_time("What is due next week?", NOW).span) == ("2026-11-23", "2026-11-30")
    assert days(read_time("anything this weekend?", NOW).span) == ("2026-11-21", "2026-11-23")
    assert days(read_time("plans for the day after tomorrow", NOW).span) == (
        "2026-11-19",
        "2026-11-20",
    )
    assert days(read_time("what is coming up in the next 10 days", NOW).span) == (
        "2026-11-17",
        "2026-11-27",
    )
    assert days(read_time("what is due within two weeks?", NOW).span) == (
        "2026-11-17",
        "2026-12-01",
    )
    three_months_ago = read_time("what did she start three months ago?", NOW)
    assert three_months_ago.past and three_months_ago.span[0] < NOW - 80 * DAY


def test_weekday_names_mean_the_coming_day_or_the_last_one_in_the_past_tense():
    assert days(read_time("Is anything on Friday?", NOW).span) == ("2026-11-20", "2026-11-21")
    assert days(read_time("What is planned for next Monday?", NOW).span) == (
        "2026-11-23",
        "2026-11-24",
    )
    assert days(read_time("What happened last Friday?", NOW).span) == ("2026-11-13", "2026-11-14")


def test_a_month_name_means_the_coming_month_or_the_last_one_in_the_past_tense():
    assert days(read_time("What is planned in March?", NOW).span) == ("2027-03-01", "2027-04-01")
    past = read_time("What was she doing in March?", NOW)
    assert days(past.span) == ("2026-03-01", "2026-04-01") and past.past
    assert days(read_time("Is anything due on the 3rd of December?", NOW).span) == (
        "2026-12-03",
        "2026-12-04",
    )
    assert days(read_time("What happened since March?", NOW).span)[0] == "2026-03-01"


def test_a_day_of_the_month_with_no_month_is_the_next_such_date_on_the_weekday_named():
    # NOW is Tuesday 17 November 2026: Friday the 27th is ten days off, Friday the 13th
    # next falls in August 2027; in the past tense, the last one that has been
    assert days(read_time("Is she free on Friday the 27th?", NOW).span) == (
        "2026-11-27",
        "2026-11-28",
    )
    assert days(read_time("Anything on Friday the 13th?", NOW).span)[0] == "2027-08-13"
    assert days(read_time("What did she do on Friday the 13th?", NOW).span)[0] == "2026-11-13"
    assert days(read_time("What is on the 3rd?", NOW).span)[0] == "2026-12-03"
    assert days(read_time("What is on Friday 4 December?", NOW).span)[0] == "2026-12-04"


def test_the_nth_or_last_weekday_of_a_month_is_that_day():
    assert days(read_time("Dinner on the last Sunday of November?", NOW).span) == (
        "2026-11-29",
        "2026-11-30",
    )
    assert days(read_time("Is she free the first Monday in December?", NOW).span)[0] == (
        "2026-12-07"
    )
    assert days(read_time("the second Tuesday of March", NOW).span)[0] == "2027-03-09"


def test_the_week_after_this_one_is_next_week_and_after_next_the_one_after():
    assert days(read_time("What is on the week after this one?", NOW).span) == (
        "2026-11-23",
        "2026-11-30",
    )
    after_next = read_time("Is she busy the week after next?", NOW)
    assert days(after_next.span) == ("2026-11-30", "2026-12-07") and after_next.relation is None
    # a week after an event is still a relation to the event
    assert read_time("What is on a week after the wedding?", NOW).relation == "after"


def test_may_and_march_as_verbs_are_not_months():
    assert read_time("May I ask what tea she likes?", NOW).span is None
    assert read_time("Will they march with the union?", NOW).span is None
    assert read_time("What is due by May?", NOW).span is not None


def test_before_an_event_asks_for_the_event_in_the_belief_dates():
    timed = read_time("What must be done before the lease renewal?", NOW)
    assert timed.about_time and timed.relation == "before" and timed.span is None
    assert timed.event_terms == content_words("lease renewal")
    # "before" with no event after it is an adverb: the question is plainly past
    assert read_time("Where did she work before?", NOW).past
    assert past_intent("Where did she work before?", NOW)


def test_an_event_told_as_a_clause_with_a_pronoun_is_an_event_to_find():
    leaving = read_time("What has she got to do before she leaves for Spain?", NOW)
    assert leaving.relation == "before" and leaving.event_terms == content_words("leaves spain")
    # since a clause, the question asks what holds now: no event to find
    assert read_time("What keeps him busy since he gave up the shop?", NOW).relation is None


def test_before_a_clause_in_the_past_tense_is_a_time_gone_by_not_an_event_ahead():
    for question in (
        "What line of work was he in before he left the city?",
        "Where did she live before she'd moved?",  # "'d" and a regular past
        "What did they do at weekends before they had the baby?",
        "What sport did he play before he finally quit?",  # a past equal to its base form
        "What was his job before left the city?",  # the name taken out for time
        "What did she do in the mornings before the kids went back?",  # a noun subject
        "Where did he work before the new year started?",
    ):
        past = read_time(question, NOW)
        assert past.relation is None and past.past and not past.soft_past, question
    # the present tense (and "quit" after "they", which may be the present) is an event ahead
    for question in (
        "What must he do before he leaves the city?",
        "What must they sort out before they quit?",
        "What has she got to do before the kids go back?",
        "What does he need before the renewal is due?",
        "What must they sort before the kids quit?",  # a noun's number is not known
    ):
        assert read_time(question, NOW).relation == "before", question


def test_before_a_past_clause_an_ended_belief_answers_over_the_todos_ahead(agent, fake_model):
    old_job = write(
        agent,
        "Worked nights as a nurse at the city hospital",
        category="identity",
        valid_until=NOW - 100 * DAY,
    )
    write(agent, "Works days as a ranger in the coastal park", category="identity")
    write(agent, "Moves to a flat nearer the park in the spring", due=NOW + 40 * DAY)
    write(agent, "Must pack the boxes for the move", due=NOW + 10 * DAY)

    ranked, pack = ask(agent, "What work did she do before she moved?")

    assert ranked[0] == old_job.pk and "ended" in pack.items[0].why


def test_a_past_clause_says_when_and_its_words_do_not_answer(agent, fake_model):
    old_job = write(
        agent,
        "Worked as a night nurse at the city hospital",
        category="identity",
        valid_until=NOW - 200 * DAY,
    )
    write(
        agent,
        "Packed up the flat and moved to the coast at the end of the summer",
        category="projects",
        valid_until=NOW - 90 * DAY,
    )
    write(agent, "Works days as a ranger in the coastal park", category="identity")

    ranked, _pack = ask(agent, "What did she do for work before she moved to the coast?")

    assert ranked[0] == old_job.pk


def test_a_question_without_time_is_not_about_time():
    plain = read_time("What tea does she like?", NOW)
    assert not plain.about_time and plain.span is None and not plain.past


def test_a_question_asking_why_asks_no_time_but_keeps_its_tense():
    for habit in (
        "Why does he prick his finger before he eats?",
        "Why won't she take on more than a handful of jobs in one day?",
        "Why do I have to be up early on a Saturday when I'm home?",
    ):
        reason = read_time(habit, NOW)
        assert not reason.about_time and reason.span is None and reason.relation is None
    assert read_time("Why did she leave her job in Lincoln?", NOW).soft_past


def test_a_season_asked_in_the_present_simple_is_a_habit_not_a_span():
    for habit in (
        "What does he like doing in the woods in autumn?",
        "Where does she swim in the winter?",
    ):
        assert read_time(habit, NOW).span is None
    for dated in ("What is she doing in the spring?", "What did he do back in the spring?"):
        assert read_time(dated, NOW).span is not None
    assert read_time("What does she have to sort before the summer?", NOW).span is not None


def test_when_was_she_last_asks_plainly_in_the_past():
    assert read_time("When was Ana last back in Kenya?", NOW).past
    assert read_time("When was last back in Kenya?", NOW).past  # the name taken out
    assert not read_time("When was the last time she rang?", NOW).past


def test_a_past_question_with_no_span_ranks_what_has_happened_over_a_plan(agent, fake_model):
    plan = write(
        agent, "Must find a neighbour to feed the goats while she is in Kenya", due=NOW + 70 * DAY
    )
    trip = write(
        agent,
        "Flew back to Nakuru for two weeks in October",
        valid_from=NOW - 40 * DAY,
        valid_until=NOW - 26 * DAY,
    )

    ranked, _ = ask(agent, "When did she go back to Kenya?")

    assert ranked.index(trip.pk) < ranked.index(plan.pk)


# --- ranking by the dates ---------------------------------------------------------------


def test_a_question_about_next_week_ranks_beliefs_due_next_week_first(agent, fake_model):
    this_week = write(agent, "Send the invoice to the printer", due=NOW + 2 * DAY)
    next_week = write(agent, "Hand in the grant proposal", due=NOW + 8 * DAY)
    later = write(agent, "Renew the studio insurance", due=NOW + 40 * DAY)
    undated = write(agent, "Is due to present work at the design guild")

    ranked, pack = ask(agent, "What is due next week?")

    assert ranked[0] == next_week.pk and "time facet: due 2026-11-25" in pack.items[0].why
    assert ranked.index(next_week.pk) < ranked.index(undated.pk)
    # dated at another time: below the undated one that shares the question's words
    assert ranked.index(undated.pk) < ranked.index(this_week.pk)
    assert ranked.index(undated.pk) < ranked.index(later.pk)


def test_a_question_about_a_past_month_finds_what_was_true_then(agent, fake_model):
    course = write(
        agent,
        "Taught an evening course at the art school",
        valid_from=datetime(2026, 2, 20, tzinfo=UTC),
        valid_until=datetime(2026, 4, 10, tzinfo=UTC),
    )
    summer = write(
        agent,
        "Worked at a summer camp for children",
        valid_from=datetime(2026, 7, 1, tzinfo=UTC),
        valid_until=datetime(2026, 8, 15, tzinfo=UTC),
    )
    write(agent, "Designs the Acme mobile app")

    ranked, pack = ask(agent, "What was she doing in March?")

    assert ranked[0] == course.pk and "time facet" in pack.items[0].why
    assert summer.pk not in ranked[:1]


def test_before_an_event_ranks_what_is_due_until_the_events_date(agent, fake_model):
    write(agent, "Lease renewal with the landlord", category="explicit_facts", due=NOW + 30 * DAY)
    paint = write(agent, "Repaint the kitchen", due=NOW + 10 * DAY)
    taxes = write(agent, "Submit the tax return", due=NOW + 60 * DAY)

    ranked, pack = ask(agent, "What has to happen before the lease renewal?")

    assert ranked.index(paint.pk) < ranked.index(taxes.pk)
    assert "time facet" in pack.items[ranked.index(paint.pk)].why
    assert "time facet" not in pack.items[ranked.index(taxes.pk)].why


def test_an_event_can_be_an_open_intention(agent, fake_model):
    intention_write(
        agent=agent,
        principal_external_id="ana",
        action="Board meeting with the investors",
        due=NOW + 12 * DAY,
        source="direct",
        now=NOW - DAY,
    )
    deck = write(agent, "Finish the pitch deck", due=NOW + 9 * DAY)
    launch = write(agent, "Launch the new website", due=NOW + 45 * DAY)

    ranked, _ = ask(agent, "What do I need to finish before the board meeting?")

    assert ranked.index(deck.pk) < ranked.index(launch.pk)


def test_another_persons_dated_beliefs_never_answer_nor_name_the_event(agent, fake_model):
    mine = write(agent, "Hand in the grant proposal", due=NOW + 8 * DAY)
    write(agent, "Water the balcony plants", due=NOW + 2 * DAY)
    theirs = write(agent, "Hand in the restaurant permit", who="ben", due=NOW + 8 * DAY)
    # ben's renewal is not ana's: her question about "the renewal" finds no event, so
    # her two dated beliefs answer it alike (ben's date would have put one before it)
    write(agent, "Lease renewal with the landlord", who="ben", due=NOW + 3 * DAY)

    ranked, _ = ask(agent, "What is due next week?")
    assert ranked[0] == mine.pk and theirs.pk not in ranked
    _, pack = ask(agent, "What has to happen before the renewal?")
    assert len({item.similarity for item in pack.items}) == 1


def test_a_current_belief_outranks_its_ended_twin_unless_the_question_is_plainly_past(
    agent, fake_model
):
    old = write(
        agent,
        "Drank black tea with milk every morning",
        category="likes",
        valid_until=NOW - 100 * DAY,
    )
    current = write(agent, "Prefers green tea in the afternoon", category="likes")

    present, _ = ask(agent, "What tea does she drink every morning?")
    assert old.pk not in present and present[0] == current.pk

    # as close in words: only an auxiliary in the past, the current one comes first
    softly_past, _ = ask(agent, "What tea did she have?")
    assert softly_past[0] == current.pk and old.pk in softly_past

    plainly_past, pack = ask(agent, "What tea did she use to drink every morning?")
    assert plainly_past[0] == old.pk and "ended" in pack.items[0].why


def test_a_when_question_prefers_the_date_it_names(agent, fake_model):
    starts = write(agent, "Yoga course at the community hall", valid_from=NOW + 5 * DAY)
    due = write(agent, "Yoga course fee payment", due=NOW + 20 * DAY)

    first_start, _ = ask(agent, "When does the yoga course start?")
    first_due, _ = ask(agent, "When is the yoga course due?")

    assert first_start[0] == starts.pk
    assert first_due[0] == due.pk


def test_a_present_statement_is_never_merged_into_its_ended_twin(agent, fake_model):
    old = write(
        agent,
        "Drinks green tea every afternoon",
        category="likes",
        valid_until=NOW - 30 * DAY,
        now=NOW - 200 * DAY,
    )
    again = belief_write(
        agent=agent,
        principal_external_id="ana",
        category="likes",
        statement="Drinks green tea every afternoon",
        confidence=0.8,
        source="direct",
        now=NOW,
    )

    assert again.outcome == "created" and again.belief.pk != old.pk
    ranked, _ = ask(agent, "What tea does she drink in the afternoon?")
    assert ranked == [again.belief.pk]


def test_a_statement_that_has_ended_never_supersedes_a_current_one(agent, fake_model):
    current = write(agent, "Lives in Lisbon", category="explicit_facts", now=NOW - 60 * DAY)
    past = belief_write(
        agent=agent,
        principal_external_id="ana",
        category="explicit_facts",
        statement="Lives in Berlin",
        confidence=0.8,
        source="direct",
        valid_until=NOW - 61 * DAY,
        now=NOW,
    )

    assert past.outcome == "created" and past.superseded is None
    current.refresh_from_db()
    assert current.status == "active" and current.valid_until is None


def test_an_undated_statement_naming_the_day_asked_answers_it(agent, fake_model):
    sunday = write(agent, "Calls her mother in Porto every Sunday", category="habit")
    write(agent, "Plays the cello in an amateur orchestra", category="interests")
    dated = write(agent, "Sunday market stall rent", due=NOW + 30 * DAY)

    ranked, pack = ask(agent, "What does she do on Sunday?")

    assert ranked[0] == sunday.pk and "time facet: names it" in pack.items[0].why
    # dated at another Sunday: judged by its date, not by the word
    assert "time facet" not in pack.items[ranked.index(dated.pk)].why


def test_a_dated_statement_naming_the_holiday_asked_leads_into_it_from_the_days_before(
    agent, fake_model
):
    # arrives two days before the Christmas holidays begin and stays for them
    brother = write(
        agent, "Her brother flies in on 19 December to stay for Christmas", due=NOW + 32 * DAY
    )
    write(agent, "Plays the cello in an amateur orchestra", category="interests")
    cards = write(agent, "Posts her Christmas cards to Porto", due=NOW + 2 * DAY)

    ranked, pack = ask(agent, "Who is coming over Christmas?")

    assert ranked[0] == brother.pk and "time facet" in pack.items[0].why
    # naming Christmas, but dated a month before it: judged by its date, as before
    assert "time facet" not in pack.items[ranked.index(cards.pk)].why


def test_a_window_with_only_an_end_starts_when_the_belief_was_known(agent, fake_model):
    tired = write(
        agent, "Feeling tired this week", category="state", valid_until=NOW + 5 * DAY, now=NOW
    )
    flu = write(
        agent,
        "Had the flu and stayed home",
        category="state",
        valid_until=NOW - 40 * DAY,
        now=NOW - 50 * DAY,
    )

    ranked, pack = ask(agent, "What happened last month?")

    assert ranked[0] == flu.pk
    assert "time facet" not in pack.items[ranked.index(tired.pk)].why


def test_a_question_naming_an_event_reads_one_more_query_whatever_the_number_of_beliefs(
    agent, fake_model
):
    def count(query):
        with CaptureQueriesContext(connection) as ctx:
            ask(agent, query)
        return len(ctx.captured_queries)

    write(agent, "Lease renewal with the landlord", due=NOW + 30 * DAY)
    ask(agent, "What has to be painted?")  # the person's candidates are cached from here
    plain = count("What has to be painted?")
    small = count("What has to happen before the lease renewal?")
    for i in range(20):
        write(agent, f"Repaint room number {i} of the flat", due=NOW + (i + 1) * DAY)
        intention_write(
            agent=agent,
            principal_external_id="ana",
            action=f"Order paint batch {i}",
            due=NOW + (i + 1) * DAY,
            source="direct",
            now=NOW,
        )

    assert small == plain + 1
    ask(agent, "What has to be painted?")
    assert count("What has to happen before the lease renewal?") == small


def test_a_belief_the_caller_may_not_read_never_names_the_event(agent, fake_model):
    write(agent, "Hand in the grant proposal", due=NOW + 8 * DAY)
    write(agent, "Water the balcony plants", due=NOW + 2 * DAY)
    hidden = write(
        agent, "Lease renewal with the landlord", due=NOW + 3 * DAY, sensitivity="restricted"
    )

    ranked, pack = ask(agent, "What has to happen before the lease renewal?")

    assert hidden.pk not in ranked
    # no event found: the two dated beliefs answer alike (the hidden date would have
    # put the plants before the renewal and the proposal after it)
    assert len({item.similarity for item in pack.items}) == 1


def test_a_belief_not_yet_valid_answers_a_question_about_its_month(agent, fake_model):
    sabbatical = write(
        agent,
        "Takes a sabbatical to walk the Camino",
        valid_from=datetime(2027, 3, 1, tzinfo=UTC),
        valid_until=datetime(2027, 5, 31, tzinfo=UTC),
    )
    write(agent, "Designs the Acme mobile app")
    write(agent, "Plays the cello in an amateur orchestra", category="interests")

    ranked, pack = ask(agent, "What is she doing in March?")
    assert ranked[0] == sabbatical.pk and "time facet: valid 2027-03-01" in pack.items[0].why
    # not a question about time: a belief not yet valid does not answer it
    present, _ = ask(agent, "What is she doing?")
    assert sabbatical.pk not in present


def test_an_open_window_is_true_in_the_span_asked_but_not_about_it():
    ask = read_time("What is on this week?", NOW)
    ts = NOW.timestamp()
    nan = float("nan")
    # since 45 days, open | the three days around now | a closed year around now
    valid_from = np.array([ts - 45 * 86_400, ts - 3 * 86_400, ts - 180 * 86_400])
    valid_until = np.array([nan, ts + 3 * 86_400, ts + 180 * 86_400])
    due = np.full(3, nan)
    known = np.full(3, ts - 86_400)

    since, days3, year = time_match(ask, due, valid_from, valid_until, known)

    assert since == 0.0  # as an undated belief: neither raised nor lowered
    assert days3 > year > 0.0  # the more of the window the span holds, the more it answers


def test_a_weekend_names_its_days_and_a_week_names_none():
    weekend = read_time("What are her plans for this weekend?", NOW)
    assert content_words("saturday sunday weekend") <= weekend.named_terms
    assert read_time("What is on tomorrow?", NOW).named_terms == content_words("wednesday")
    assert read_time("What is on next week?", NOW).named_terms == frozenset()


def test_a_weekend_with_the_indefinite_article_is_a_length_not_the_coming_weekend():
    coming = ("2026-11-21", "2026-11-23")

    assert days(read_time("When is her son next home for a weekend?", NOW).span) != coming
    assert days(read_time("Is she home at the weekend?", NOW).span) == coming


def test_a_habit_on_a_day_of_the_weekend_answers_a_question_about_the_weekend(agent, fake_model):
    sauna = write(agent, "Goes to the sauna on Sunday evenings", category="habit")
    write(agent, "Plays the cello in an amateur orchestra", category="interests")
    gym = write(agent, "Climbs at the wall on Monday evenings", category="habit")

    ranked, pack = ask(agent, "What are her plans for this weekend?")

    assert ranked[0] == sauna.pk and "time facet: names it" in pack.items[0].why
    assert "time facet" not in pack.items[ranked.index(gym.pk)].why


def test_a_plan_dated_this_weekend_comes_before_a_habit_on_one_of_its_days(agent, fake_model):
    sauna = write(agent, "Goes to the sauna on Sunday evenings", category="habit")
    saturday = NOW.replace(day=21)  # NOW is Tuesday 17 November
    visit = write(agent, "Visits her parents in Porto", due=saturday)
    write(agent, "Plays the cello in an amateur orchestra", category="interests")

    ranked, pack = ask(agent, "What are her plans for this weekend?")

    assert ranked[:2] == [visit.pk, sauna.pk]
    assert "time facet: names it" in pack.items[1].why


def test_before_an_event_the_event_is_the_latest_text_naming_it_and_not_an_answer(
    agent, fake_model
):
    renewal = write(
        agent,
        "The flat's lease renews on 31 January",
        category="explicit_facts",
        due=NOW + 75 * DAY,
    )
    tell = write(agent, "Must tell the landlord whether he will renew the flat", due=NOW + 44 * DAY)
    boiler = write(agent, "Has the boiler serviced", due=NOW + 60 * DAY)
    taxes = write(agent, "Submit the tax return", due=NOW + 90 * DAY)

    ranked, pack = ask(agent, "What does he have to do before the flat renewal?")

    def timed(belief):
        return "time facet" in pack.items[ranked.index(belief.pk)].why

    # what is due before the renewal answers, the renewal itself and what is after do not
    assert timed(tell) and timed(boiler)
    assert not timed(renewal) and not timed(taxes)


def test_after_an_event_the_event_is_the_earliest_text_naming_it(agent, fake_model):
    write(agent, "Moved into the new flat", category="explicit_facts", due=NOW - 60 * DAY)
    write(agent, "Hosted a party in the new flat", due=NOW - 20 * DAY)
    shelves = write(agent, "Put up the shelves", due=NOW - 40 * DAY)

    ranked, pack = ask(agent, "What did she do after the new flat?")

    assert "time facet" in pack.items[ranked.index(shelves.pk)].why


def test_a_way_of_life_that_ended_in_the_span_is_less_about_it_than_what_happened_in_it():
    ask = read_time("What did she do in September?", NOW)
    ts = NOW.timestamp()
    nan = float("nan")
    sept_13, sept_5, sept_25 = (datetime(2026, 9, d, tzinfo=UTC).timestamp() for d in (13, 5, 25))
    # a job known since last year that ended on the 13th | a placement from the 5th to the
    # 25th | a job that began on the 5th and ended on the 13th
    valid_from = np.array([nan, sept_5, sept_5])
    valid_until = np.array([sept_13, sept_25, sept_13])
    due = np.full(3, nan)
    known = np.full(3, ts - 400 * 86_400)

    ended, placement, short = time_match(ask, due, valid_from, valid_until, known)

    assert placement == short == 1.0  # held inside the span: about it
    assert 0.0 < ended < 0.2  # true in a few days of it, the end of a long way of life


def test_what_happened_in_a_past_month_comes_before_the_job_that_ended_in_it(agent, fake_model):
    job = write(
        agent,
        "Was a midwife on the labour ward",
        category="identity",
        valid_until=datetime(2026, 9, 13, tzinfo=UTC),
        now=NOW - 500 * DAY,
    )
    placement = write(
        agent,
        "Mentored two student midwives on placement",
        valid_from=datetime(2026, 9, 5, tzinfo=UTC),
        valid_until=datetime(2026, 9, 25, tzinfo=UTC),
    )

    ranked, _ = ask(agent, "What did she do in September?")

    assert ranked[:2] == [placement.pk, job.pk]


def test_this_time_next_week_is_the_one_day_a_week_from_now():
    assert days(read_time("What is she doing this time next week?", NOW).span) == (
        "2026-11-24",
        "2026-11-25",
    )
    last_year = read_time("What was he doing this time last year?", NOW)
    assert days(last_year.span) == ("2025-11-17", "2025-11-18") and last_year.past
    # "at this time of year" names no day
    assert read_time("What gets him down at this time of year?", NOW).span is None


def test_a_week_or_a_half_of_a_named_month_is_that_part_of_it():
    last_week = read_time("Anything in his calendar for the last week of November?", NOW)
    # not last week: the last seven days of this November, still ahead
    assert days(last_week.span) == ("2026-11-24", "2026-12-01") and not last_week.past
    assert days(read_time("What is on in the first half of December?", NOW).span) == (
        "2026-12-01",
        "2026-12-16",
    )
    assert days(read_time("Is she away the second week in January?", NOW).span) == (
        "2027-01-08",
        "2027-01-15",
    )


def test_a_regular_past_verb_after_the_question_word_puts_the_question_in_the_past():
    summer = read_time("What happened in his life over the summer?", NOW)
    assert days(summer.span) == ("2026-06-01", "2026-09-01") and summer.past
    # a noun ending the same way, followed by its verb, is no past
    assert not past_intent("What breed is her dog?", NOW)
    assert not past_intent("What tinned food does he eat?", NOW)


def test_when_joining_a_clause_asks_nothing_about_time():
    assert not read_time("Should I make him a coffee when he comes round?", NOW).about_time
    assert not read_time("Can I get him a pint when we go out?", NOW).about_time
    # leading the question, or its own clause (an auxiliary after it), it asks when
    assert read_time("If I text him at eight, when will he see it?", NOW).about_time
    assert read_time("When's her exam?", NOW).about_time


def test_an_event_told_with_its_own_time_is_looked_for_in_that_time():
    leaving = read_time("What has she to do before she heads off to Denmark in January?", NOW)
    assert leaving.relation == "before" and leaving.event_terms == content_words("heads denmark")
    assert days(leaving.event_span) == ("2027-01-01", "2027-02-01")


def test_before_an_event_no_text_names_what_is_due_until_its_time_answers(agent, fake_model):
    # nothing says when she heads off to Denmark; she does in January
    ferry = write(agent, "Must book the ferry for the course", due=datetime(2027, 1, 6, tzinfo=UTC))
    party = write(agent, "Throws a party at the hotel", due=datetime(2027, 2, 20, tzinfo=UTC))
    # a text naming a word of the event at another time is not the event
    write(agent, "Heads the climbing club's committee", valid_from=NOW - 60 * DAY)

    ranked, pack = ask(agent, "What must she do before she heads off to Denmark in January?")

    assert "time facet: due 2027-01-06" in pack.items[ranked.index(ferry.pk)].why
    assert "time facet" not in pack.items[ranked.index(party.pk)].why


def test_a_rough_time_is_answered_best_by_the_date_nearest_its_middle():
    fortnight = read_time("What has he got on in a fortnight?", NOW)
    ts = NOW.timestamp()
    nan = float("nan")
    due = np.array([ts + 14 * 86_400, ts + 17 * 86_400, ts + 8 * 86_400, ts + 30 * 86_400])
    empty = np.full(4, nan)

    middle, near, edge, later = time_match(fortnight, due, empty, empty, np.full(4, ts))

    assert middle == 1.0 and 1.0 > near > edge > 0.0 and later < 0.0


def test_a_way_of_life_begun_in_the_span_is_less_about_it_than_what_happened_in_it():
    ask = read_time("What did she get up to last week?", NOW)
    ts = NOW.timestamp()
    nan = float("nan")
    sunday = datetime(2026, 11, 15, 9, tzinfo=UTC).timestamp()
    # blisters from Sunday's run, for a week | the run, on Sunday | a flat rented since Sunday
    valid_from = np.array([sunday, sunday, sunday])
    valid_until = np.array([sunday + 6 * 86_400, sunday, nan])
    due = np.full(3, nan)

    blisters, run, flat = time_match(ask, due, valid_from, valid_until, np.full(3, ts))

    assert run == 1.0 and 0.0 < blisters < 0.2 and flat == 0.0


def test_we_re_is_present_not_were():
    bonfire = read_time("We're having a bonfire on Saturday night; is that a problem?", NOW)
    assert days(bonfire.span) == ("2026-11-21", "2026-11-22") and not bonfire.past
    assert read_time("Were you there on Saturday?", NOW).past


def test_next_with_no_span_asks_for_the_coming_date(agent, fake_model):
    gone = write(agent, "Saw the physio about her shoulder", due=NOW - 20 * DAY)
    coming = write(agent, "Sees the physio about her shoulder", due=NOW + 9 * DAY)

    ranked, pack = ask(agent, "When does she next see the physio about her shoulder?")

    assert ranked[0] == coming.pk
    assert "time facet" not in pack.items[ranked.index(gone.pk)].why


def test_a_present_question_stays_present_when_its_event_lies_in_the_past(agent, fake_model):
    # "by the zoo" reads as a time relation, and its event (the shipment "from near the
    # zoo" in the summer) is past: the question is still asked of now, so the ended home
    # is not given for it
    write(agent, "Shipped the old piano from near the zoo", due=NOW - 120 * DAY)
    old = write(
        agent,
        "Lived in a flat by the zoo in the old town",
        category="explicit_facts",
        valid_until=NOW - 90 * DAY,
    )
    current = write(agent, "Lives in a cottage by the harbour", category="explicit_facts")
    ranked, _ = ask(agent, "Does she still live by the zoo?")
    assert old.pk not in ranked and current.pk in ranked


def test_a_season_after_a_verb_is_that_season_unless_it_qualifies_a_noun():
    summer = read_time("How did she spend the summer?", NOW)
    assert days(summer.span) == ("2026-06-01", "2026-09-01") and summer.past
    # no verb before it: not its object
    assert read_time("How does she keep fit through the winter?", NOW).span is None
    # "the winter stoppage" is an event named by its season, not the winter itself
    stoppage = read_time("What must she do before the winter stoppage?", NOW)
    assert stoppage.span is None and stoppage.event_terms == content_words("winter stoppage")


def test_a_season_with_no_year_is_the_last_one_in_the_past_and_the_coming_one_otherwise():
    # "did" dropped after a thing as the subject: the past, so last spring
    happened = read_time("Anything big happen for her in the spring?", NOW)
    assert days(happened.span) == ("2026-03-01", "2026-06-01") and happened.past
    assert days(read_time("Where will she be in the spring?", NOW).span) == (
        "2027-03-01",
        "2027-06-01",
    )
    # a thing with no verb in its base form after it leaves the question as it was
    assert not read_time("Anything due in the spring?", NOW).past
    assert not read_time("Anything happening for her this weekend?", NOW).soft_past


def test_once_the_new_year_starts_is_the_time_after_the_year_begins():
    once = read_time("What's on her plate once the new year starts?", NOW)
    assert once.span[0] == datetime(2027, 1, 1, tzinfo=UTC) and once.span[1] > once.span[0]
    assert not once.past
    before = read_time("What must she finish before the new year?", NOW)
    assert before.span[1] == datetime(2027, 1, 1, tzinfo=UTC)
    # "the summer is over" is the moment the summer ends
    over = read_time("What will she do after the summer is over?", NOW)
    assert over.span[0] == datetime(2027, 9, 1, tzinfo=UTC)
    # "once" with no time after it, and New Year as a feast (no article), name no time
    assert read_time("How does she unwind once she's back home?", NOW).span is None
    assert read_time("Would she come skiing with us at New Year?", NOW).span is None


def test_a_text_naming_the_event_only_in_its_own_before_clause_prepares_for_it(agent, fake_model):
    # memory has no arrival, only what is to be done before it: the arrival comes after
    # the last of these, so all of them are due before it
    perch = write(
        agent, "Must build a perch in the yard before her new hawk arrives", due=NOW + 40 * DAY
    )
    scales = write(agent, "Must buy scales before she collects the new hawk", due=NOW + 45 * DAY)
    later = write(agent, "Flies to Rome for the falconry fair", due=NOW + 70 * DAY)
    # a text naming the event dated before what prepares for it is not the event either
    write(agent, "Shows her new hawk hood at the club", due=NOW + 20 * DAY)

    ranked, pack = ask(agent, "What must she get done before her new hawk arrives?")

    def timed(belief):
        return "time facet" in pack.items[ranked.index(belief.pk)].why

    assert timed(perch) and timed(scales) and not timed(later)


def test_an_events_words_are_its_own_on_both_sides_of_its_time():
    ceremony = read_time("What must she do before the big January ceremony in the orchard?", NOW)
    assert ceremony.event_terms == content_words("big ceremony orchard")
    assert days(ceremony.event_span) == ("2027-01-01", "2027-02-01")


def test_a_question_about_the_time_to_come_takes_its_event_ahead_of_now(agent, fake_model):
    # both name "goats" and "start": the move is gone by, the kidding to come
    write(
        agent,
        "Moved into the farmhouse with his goats at the start of September",
        valid_from=NOW - 77 * DAY,
        valid_until=NOW - 74 * DAY,
    )
    kidding = write(agent, "The goats are due to start kidding in March", due=NOW + 105 * DAY)
    roof = write(agent, "Must mend the barn roof", due=NOW + 115 * DAY)

    ranked, pack = ask(agent, "What will his nights be like once the goats start giving birth?")

    def timed(belief):
        return "time facet" in pack.items[ranked.index(belief.pk)].why

    assert timed(kidding) and timed(roof)


def test_a_count_from_today_is_the_point_that_far_ahead():
    def middle(query):
        span = read_time(query, NOW).span
        return span[0] + (span[1] - span[0]) / 2

    assert middle("What's happening with her a fortnight from today?") == NOW + 14 * DAY
    assert middle("What is on two weeks from now?") == NOW + 14 * DAY
    assert middle("Anything a week from tomorrow?") == NOW + 8 * DAY
    assert read_time("What's happening a fortnight from today?", NOW).around


def test_ahead_of_an_event_what_is_done_for_it_comes_before_what_only_falls_before_it(
    agent, fake_model
):
    medical = write(agent, "Has her medical renewal with a doctor in Dublin", due=NOW + 10 * DAY)
    write(
        agent,
        "Starts a procedures course at the training centre in Luxembourg on 25 January",
        due=NOW + 69 * DAY,
    )
    stay = write(
        agent,
        "Must arrange for Radu to stay with Oksana while she is in Luxembourg",
        due=NOW + 60 * DAY,
    )

    ranked, _ = ask(agent, "What does she have to get done before her training course abroad?")

    assert ranked.index(stay.pk) < ranked.index(medical.pk)


def test_a_preparation_names_the_event_for_what_else_is_done_for_it(agent, fake_model):
    race = write(agent, "Runs a night orienteering race in the forest", due=NOW + 5 * DAY)
    write(agent, "Must renew her residence permit before she flies to Chile", due=NOW + 40 * DAY)
    cat = write(
        agent, "Must ask Farah to feed the cat while she is away in Chile", due=NOW + 52 * DAY
    )
    write(agent, "Flies to Valparaiso for her mother's eightieth", due=NOW + 56 * DAY)

    ranked, _ = ask(agent, "What has she got to sort out before she flies out for her mum's party?")

    assert ranked.index(cat.pk) < ranked.index(race.pk)


def test_a_weekday_in_the_plural_or_before_mornings_names_a_habit_not_a_date():
    assert read_time("Does he go orienteering on Sunday mornings?", NOW).span is None
    assert read_time("Does she swim on Sundays?", NOW).span is None
    # one Sunday (its race) is a date
    assert days(read_time("What time is Sunday's race?", NOW).span) == ("2026-11-22", "2026-11-23")
    assert days(read_time("Is he free on Sunday morning?", NOW).span) == (
        "2026-11-22",
        "2026-11-23",
    )


def test_christmas_is_the_late_december_holidays_and_after_a_relation_the_day():
    holidays = ("2026-12-21", "2027-01-01")
    assert days(read_time("Where is she spending Christmas Day this year?", NOW).span) == holidays
    assert days(read_time("Where is she spending the Christmas holidays?", NOW).span) == holidays
    assert read_time("What's he doing in the days after Christmas?", NOW).span[0] == datetime(
        2026, 12, 26, tzinfo=UTC
    )
    # "the Christmas market" is a thing, not a time
    assert read_time("Would he like a ride at the Christmas market?", NOW).span is None


def test_by_in_a_present_question_whose_event_is_past_is_of_place(agent, fake_model):
    write(agent, "Moved into a flat out by the airport", due=NOW - 400 * DAY)
    write(agent, "Got his pilot licence", due=NOW - 420 * DAY)
    write(agent, "Lives in a farmhouse in Galway", category="explicit_facts")

    ranked, pack = ask(agent, "Is he still living out by the airport?")

    assert ranked and not any("time facet" in item.why for item in pack.items)


def test_the_day_after_an_event_is_the_one_day_after_it(agent, fake_model):
    birthday = write(agent, "Cooks dinner for Bence's birthday", due=NOW + 8 * DAY)
    doctor = write(agent, "Has her hands looked at by a dermatologist", due=NOW + 9 * DAY)
    write(agent, "Takes the train to Szeged for the weekend", due=NOW + 11 * DAY)

    ranked, pack = ask(agent, "What has she got on the day after Bence's birthday?")

    assert ranked[0] == doctor.pk and ranked.index(birthday.pk) > 0
    # from a time as from an event: the day, the week, a count of them
    assert days(read_time("What is she doing the day after Christmas?", NOW).span) == (
        "2026-12-26",
        "2026-12-27",
    )
    assert days(read_time("Anything on the week before Christmas?", NOW).span) == (
        "2026-12-18",
        "2026-12-25",
    )
    assert days(read_time("What is on two days after the 3rd of December?", NOW).span) == (
        "2026-12-05",
        "2026-12-06",
    )
    # "the day after tomorrow" and "the week after next" are times of their own
    assert read_time("plans for the day after tomorrow", NOW).offset is None


def test_between_two_times_is_the_span_from_the_first_to_the_second():
    assert days(
        read_time("What's he got coming up between the 1st and the 15th of December?", NOW).span
    ) == ("2026-12-01", "2026-12-16")
    assert days(read_time("Anything on between Monday and Wednesday?", NOW).span) == (
        "2026-11-23",
        "2026-11-26",
    )
    now_to = read_time("What must she do between now and Christmas?", NOW).span
    assert now_to[0] == NOW and now_to[1].date().isoformat() == "2026-12-26"
    # a time after both holds them: read as a whole, not from here to there
    assert days(read_time("Anything between Monday and Friday next week?", NOW).span) == (
        "2026-11-23",
        "2026-11-30",
    )
    # between two things is no time
    assert read_time("Is the shed between the bins and the fence?", NOW).span is None


def test_the_new_year_seen_in_is_its_eve_and_in_the_new_year_the_coming_year():
    assert days(read_time("How is he seeing the new year in?", NOW).span) == (
        "2026-12-31",
        "2027-01-02",
    )
    assert days(read_time("What changes for her in the new year?", NOW).span) == (
        "2027-01-01",
        "2028-01-01",
    )
    # a relation to the new year is to its first moment
    before = read_time("What must she finish before the new year?", NOW)
    assert before.span[1] == datetime(2027, 1, 1, tzinfo=UTC)


def test_a_season_of_theirs_in_no_tense_is_the_one_nearest_now(agent, fake_model):
    # NOW is mid-November: the last summer ended eleven weeks ago, the next is months off
    summer = read_time("Tell me about her summer.", NOW)
    assert days(summer.span) == ("2026-06-01", "2026-09-01") and summer.past
    assert days(read_time("Tell me about Dori's summer.", NOW).span)[0] == "2026-06-01"
    # the next spring is nearer than the last
    assert days(read_time("Tell me about her spring.", NOW).span)[0] == "2027-03-01"
    lake = write(
        agent,
        "Stayed two weeks at her sister's house at the lake",
        valid_from=NOW - 135 * DAY,
        valid_until=NOW - 121 * DAY,
    )
    write(agent, "Swims in the river on winter mornings", category="interests")

    ranked, _ = ask(agent, "Tell me about Ana's summer.")

    assert ranked and ranked[0] == lake.pk


def test_a_relation_word_whose_event_nothing_names_asks_no_time(agent, fake_model):
    write(agent, "Has a filling at the dentist", due=NOW + 3 * DAY)
    write(agent, "Her neighbour feeds the moggy when she is away", category="interpersonal")

    _, pack = ask(agent, "Who looks after her moggy when she goes off?")

    assert pack.items and not any("time facet" in item.why for item in pack.items)
    # "before" an event nothing names still asks what is due before it
    assert read_time("What must she do before her course kicks off?", NOW).by_event_only is False


def test_an_event_named_in_other_words_is_the_prepared_for_belief_nearest_in_meaning(
    agent, fake_model
):
    inspection = "An excise officer inspects the distillery's duty records"
    fake_model.same_as["taxman comes round"] = inspection
    write(agent, inspection, due=NOW + 20 * DAY)
    ledger = write(
        agent,
        "Must bring the spirits ledger up to date before the excise visit",
        due=NOW + 15 * DAY,
    )
    later = write(agent, "Must sort out the winter rota at the bottling plant", due=NOW + 40 * DAY)

    ranked, pack = ask(agent, "What does he have to get sorted before the taxman comes round?")

    # no text shares the event's words: by meaning, the inspection the ledger is brought up
    # to date for is the event, and what is due before it answers first
    assert pack.time_intent
    assert ranked.index(ledger.pk) < ranked.index(later.pk)
    assert "time facet" not in pack.items[ranked.index(later.pk)].why


def test_what_a_todo_is_done_before_is_the_dated_text_its_clause_names():
    from memory.time_facet import prepared_for

    dated = [
        ("Must do a stocktake of the warehouse before the excise visit", NOW + 10 * DAY),
        ("An excise officer inspects the duty records", NOW + 20 * DAY),
        ("Takes the dog to the vet", NOW + 12 * DAY),
    ]

    assert prepared_for(dated) == {1: frozenset(content_words("the excise visit"))}


def test_a_relation_word_of_another_sense_finds_no_event_by_meaning(agent, fake_model):
    show = "Shows his canaries at the winter bird fair"
    fake_model.same_as["window"] = show
    write(agent, show, due=NOW + 20 * DAY)
    write(agent, "Must clean the cages before the bird fair", due=NOW + 15 * DAY)
    write(agent, "Keeps songbirds in cages in the front room", category="interests")

    ranked, pack = ask(agent, "Does he keep songbirds by the window?")

    # "by the window" is of place: no text names it in its words, so it is no event
    assert all("time facet" not in item.why for item in pack.items)
