"""The ``local`` proposer (the offline default): themes from people's requests.

**A goals sentence** names a kind of work the person asks for again and again:

1. It reads people's own words only: code (fenced and inline), stack traces, quoted
   e-mail lines, URLs, identifiers and file names ("fct_orders", "load.py") and pasted
   documents are blanked (``safety.text.readable_text``).
2. It finds *requests*: clauses that ask for a piece of work, with a verb ("Can you
   draft a reply to the refund request", "Write pytest tests for this view", "Reply
   to a Google review"), without one ("Weekend post please", "Flour order time",
   "Crew schedule this week"), passed on from someone else ("Hugo wants an
   explanation of …") or made by pasting an error (a trace, a log naming an error) in
   an opening message: a request to debug the problem the person's words around it
   name ("Getting this error when saving", "Another stack trace"; "error" when they
   name none; a paste that names no error counts when the clause right before it says
   what fails: "xcode archive fails:"), its quote the clause that introduces the paste, and no topic theme
   from the paste's surroundings. A clause that edits the draft at hand ("Make it shorter",
   "Type hints please" after a reply) is a correction, not a request; after a reply a
   request counts when it asks for work also asked for in opening messages or names
   it with a verb of work ("Also write pytest tests for …"). People ask in many more
   ways, and those count too: "any chance you could write up …", "would you mind
   drafting …", "can I get a price for …", "I'd love a caption …", "do the induction
   checklist …", "allotment renewal letters need to go out", a request passed on by a
   name written small ("jonno wants a bar chart …", the name no part of the quote), a
   count that announces requests ("2 things.", itself none), and in an opening message
   a later sentence that names the work and what it is for ("… long covid flare.
   allotment inspection letter for the 4 plots") or a later clause of a noun phrase and
   "pls" ("welcome email pls"), questions or ideas asked to be made ("book club
   questions pls", "do the questions"), what the thing at hand is turned into ("turn
   this into a component"), a verb alone after an article ("draft the invite"), after a
   greeting of its own ("hi. practice notes for …"), two modifiers joined by "and"
   before one noun ("wash and care label text", "Instagram and Facebook post then"); a word and a number are a label
   ("grade 1 exam prep note"), and a reported error keeps what fails ("CI is failing on
   the job": CI errors). Parts of speech, lemmas and inflection come from
   ``learning.language``.
3. A request gives a *head* (what is made: "reply", "post", "quote"), its modifiers
   ("weekend", "cake"), the nouns of its prepositional phrases ("to the refund
   request") and its verb. A *theme* recurs in ``min_conversations`` conversations
   (and ``min_users`` people in team mode); it is a head, alone or with one
   qualifier (a modifier, a phrase noun, a noun of the same messages), a verb with a
   phrase noun ("summarise … for engineering"), a verb that names the work on its own
   ("Reviews PRs and diffs."), a modifier over several texts ("aftercare sheet",
   "aftercare notes") or a noun some requests make and others are about ("chase the
   overdue invoice", "a reminder for an unpaid invoice"), a noun made in one request
   and named in others ("start a terminology glossary", "Glossary update"), or a verb
   that names the work with a noun of its object wherever the request puts it
   ("proofread a paragraph of my translation", "Proofread please" under a pasted
   translation -> "Proofreads the translations."). A generic head ("reply",
   "explanation") needs a qualifier that names the work: not a vague modifier
   ("short"), not the people it is for ("guest replies"), not a name; a vague topic
   ("changes") only with the word people put before it ("booking changes").
4. Meaning, from the stored embeddings: a theme's messages must be about the same
   thing. A message far from the others (mean cosine below ``OUTLIER``) does not
   count, and a theme whose messages are too far apart (``MIN_COHERENCE``) is left
   out; among themes equally recurrent the most coherent wins (ties by name, so every
   run gives the same answer). Requests are also grouped by meaning, whatever words
   they use: the embeddings of their clauses are clustered (average linkage, cosine at
   least ``SAME_WORK``) and a group in ``min_conversations`` conversations is a theme
   named after the word-level theme most of its members share ("Need cover for
   Friday's shift" joins "redo the rota" and "sort the October rota"); a group no
   shared words name is left out (``meaning_themes``). Heads whose own embeddings are at
   least ``SAME_HEAD`` alike are one head ("Quotation for the church hall committee" with
   "quote for the takeaway"), named by the head most conversations write (``same_heads``);
   synonyms the encoder does not tell ("quote", "estimate") stay apart.
5. The sentence is built from the requests' verb and object, third person, plural,
   no article, acronyms as people write them: "Drafts replies to refund requests.",
   "Writes SQL queries.". The quotes are whole request clauses (at least four words),
   one per conversation, cut before any word a quote must not hold: names (known to
   memory, or written as names in the messages read: "Hugo", "TripAdvisor"), a
   capitalised word inside a sentence, addresses and street names, titled names,
   postcodes and other contact details (``learning.policy.contact_spans``), code.

**A standing rule** comes from corrections (user lines written after a reply) that
give the same instruction in ``min_corrections`` conversations: a word sequence
(compared by lemma, so "dates" and "date" agree) with at least two content words.
Its text is the clearest variant of the instruction: no pronoun pointing at the
draft or at one person, verb first, hyphens kept ("Use 24-hour times."); a verbless
one gets "Show" when it says where something goes ("Show VAT on its own line.") and
"Use" otherwise ("Use British spelling."). One-off edits, corrections that disagree
on a value and rules the policy refuses are skipped: an edit of the draft at hand
("Write it in German", "Make it shorter") is no rule however often it recurs, and a
value in a rule ("max 6 bullets") must be given alike in ``min_corrections``
conversations and contradicted by no other correction ("8 bullet points is fine").
A rule names its matter: no "Use …" of a noun phrase that is the object of a preposition
("…, to the current standard, …" modifies what its clause left behind) and no 'Say "they
must …"' whose subject is named in another clause; a wording with a hyphen and without
is one instruction ("home-grown", "home grown"). One matter, one rule: a rule whose
object names mostly what the object of a rule the persona holds names ("Add the hat line."
after 'Put "riding hat first" on the list.') is that rule in other words
(``rules.same_matter``).

**Another language.** For a persona written in French, Spanish, German, Italian,
Portuguese, Dutch, Swedish, Danish, Norwegian, Polish, Croatian or Czech
(``learning.language.persona_language``) a goals sentence is read and worded by
``other_languages`` with a small frame per language (``learning.language.FRAMES``: the
verbs people ask with, articles, the complement and purpose of a noun): "Tu peux me
préparer un devis ?", "Devis pour un restaurant" and "Le café veut un devis pour …" give
"Prépare les devis."; the person's words, never a translation. Requests are grouped by
the noun they make and by what they are about ("el texto de la tarjeta" with "la tarjeta
de una corona"). German writes every noun with a capital, so a name there is a capitalised
word after a title or a bare preposition ("Herrn Krüger", "bei Yilmaz"), and a plural is
the form the messages write or one its ending settles, never guessed ("Erstellt
Instagram-Beiträge."). Italian plurals and articles follow the spelling where it settles
them ("la conferma" -> "le conferme", "post" -> "i post") and are not guessed where the
stress or the gender decides ("medico", "programma"). Portuguese is read in European and
Brazilian spelling alike ("Podes escrever …", "Você pode me fazer …", "Preciso de …",
"Queria …", "Faz-me …", "Me faz …"): a plural follows the spelling where it settles it
("orçamento" -> "orçamentos", "mensagem" -> "mensagens", "papel" -> "papéis"), and a noun
in "-ão" ("-ões", "-ães" or "-ãos") or a borrowed word ("post") takes only the plural the
messages write; "Escreve as publicações do Instagram.", "Prepara os orçamentos.". A name
after a title ("Sra. Costa", "Dr. Almeida", "Dona Fernanda") is a name, the title's dot
no sentence end. A standing rule in French, Spanish, Italian, Portuguese or German is a
recurring correction kept as written when it is an instruction of the language's rule
frame (Portuguese: "Põe sempre …", "Não uses …", "Escreve sem …", its "nunca", "não",
"sem" kept); in German by its grammar: an imperative first ("Schreib",
"Schreiben Sie"), a separable verb's particle last ("Gib … an"), or an infinitive last in a
clause with no subject ("Lieferzeit immer in KW angeben"), its "nie", "nicht", "kein"
kept. Dutch and Swedish goals are worded from their frames' verb forms, listed whole
("Kun je een bevestiging maken voor …", "Kan du skriva en offert …"), with a plural the
ending settles ("bevestigingen", "fakturor" after "en faktura") or the messages write
("facturen", "offerter"); their rules are declined. Danish and Norwegian (Bokmål) goals
are worded the same way ("Kan du skrive et tilbud …", "Lav en tjekliste …", "Kan du lage
en faktura …", labels), in the indefinite plural a role writes ("Skriver fakturaer.",
"Lager sjekklister."): "-a", "-ing" and an unstressed "-e" settle it ("fakturaer",
"bestillinger", "tjeklister"), any other noun takes the plural the messages write (Danish
also made definite: "rapporterne"), and a zero plural ("tilbud", "opslag") is never
guessed; a noun made definite after "til" ("til bureauet") is whom the work goes to and
groups no theme. Their standing rules are kept as written when they open with an
imperative ("Skriv altid ugedagen med …", "Brug husnummeret …"). The identifier tells
the two apart by chance in a few words, so the review reads a sentence told the sibling
language as the persona's (``language.written_alike``). Polish, Croatian and Czech goals are
read without articles, typed with or without diacritics, and worded in the third person and
the accusative plural the messages write ("Priprema ponude.", "Píše nabídky."); their standing
rules are declined. A persona in any other language (one the identifier behind
``language.detect`` tells that the proposer does not name: ``language.UNREAD``, Finnish,
Hungarian, Icelandic, ...) is declined with the reason
(the review log says it), never read with a neighbour's frames or answered in English.

It proposes; the review still verifies every quote and applies the policy. It makes
no network call; it encodes the request clauses of a review in one batch (the model is
loaded once per process), and messages without a stored vector.


The package: ``words`` (word lists and thresholds), ``tokens``, ``requests``, ``themes``,
``wording`` (the sentence of a theme), ``other_languages`` (French, Spanish, German, Italian,
Portuguese, Dutch, Swedish, Danish and Norwegian sentences), ``hygiene`` (what a quote may hold),
``corrections`` (instructions after a reply that recur), ``rules`` (a rule's wording)
and ``proposer`` (``LocalProposer``).
"""

from __future__ import annotations

from learning.proposers.local.corrections import (
    Correction,
    corrections_of,
    recurring_instructions,
)
from learning.proposers.local.hygiene import (
    proper_words,
    quote_for,
    request_quote,
    verified_evidence,
)
from learning.proposers.local.proposer import LocalProposer, persona_statements
from learning.proposers.local.requests import (
    Request,
    counts_as_request,
    error_report,
    message_span,
    requests_of,
)
from learning.proposers.local.rules import rule_for
from learning.proposers.local.themes import (
    Theme,
    find_themes,
    meaning_clusters,
    meaning_themes,
    plural_nouns,
)
from learning.proposers.local.tokens import Tok, clauses, tokens
from learning.proposers.local.wording import sentence_for

__all__ = [
    "Correction",
    "LocalProposer",
    "Request",
    "Theme",
    "Tok",
    "clauses",
    "corrections_of",
    "counts_as_request",
    "error_report",
    "find_themes",
    "meaning_clusters",
    "meaning_themes",
    "message_span",
    "persona_statements",
    "plural_nouns",
    "proper_words",
    "quote_for",
    "recurring_instructions",
    "request_quote",
    "requests_of",
    "rule_for",
    "sentence_for",
    "tokens",
    "verified_evidence",
]
