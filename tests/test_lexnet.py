"""English word senses (core.lexnet, the bundled WordNet 3.0 extract) and what they let the
engine read: a question word that shares a frequent sense with a relation label word names
that relation, where neither its form nor the small sentence encoder links them."""

from __future__ import annotations

from pathlib import Path

import pytest

from core import lexnet
from core.analysis import MODIFIER_SHARE, analyse, lexicon_for
from core.engine import Engine
from core.evaluate import evidence_path
from core.workspace import Workspace

pytestmark = pytest.mark.skipif(not lexnet.available(), reason="core/data/wordnet not built")


def test_inflections_and_phrases_find_their_lemma() -> None:
    assert lexnet.lemmas("passed_away") == ("pass_away",)  # the first word inflected
    assert "found" in lexnet.lemmas("founded")
    assert lexnet.lemmas("xqzzy") == ()


def test_a_shared_frequent_sense_links_two_words() -> None:
    captain = lexnet.label_senses("captain", "n")
    assert lexnet.shared_sense("skipper", captain) >= lexnet.DERIVED  # (to skipper a team)
    founded = lexnet.label_senses("founded", "v")
    assert lexnet.shared_sense("set_up", founded) == 1.0  # establish, set up, found, launch


def test_a_derivation_links_a_verb_to_its_noun_a_little_less() -> None:
    death = lexnet.label_senses("death", "n")
    assert lexnet.shared_sense("pass_away", death) == lexnet.DERIVED  # die — death


def test_synonyms_are_the_other_lemmas_of_the_first_senses() -> None:
    assert "grandmother" in lexnet.synonyms("granny")
    assert "grandmother" in lexnet.synonyms("nans")  # an inflection: its lemma's
    assert "grandfather" in lexnet.synonyms("gramps")
    assert "granny" not in lexnet.synonyms("granny")  # the word itself is no synonym
    assert lexnet.synonyms("xqzzy") == ()


def test_a_participle_or_gerund_is_an_inflected_verb_wordnet_knows() -> None:
    for word in ("starring", "directed", "founded", "married", "wedding", "kidnapped"):
        assert lexnet.may_inflect_a_verb(word), word
    for word in ("offspring", "spring", "sacred", "naked", "morning", "ceiling"):
        assert not lexnet.may_inflect_a_verb(word), word
    assert lexnet.may_inflect_a_verb("frobnicated")  # unknown: its ending decides


def test_a_rare_sense_links_nothing() -> None:
    # "set" is "place" in its commonest verb sense, but `place of birth` says the noun
    place = lexnet.label_senses("place", "n")
    assert lexnet.shared_sense("set", place) == 0.0
    # "go" is "die" only in its 18th sense
    assert lexnet.shared_sense("go", lexnet.label_senses("death", "n")) == 0.0


FIRMS = """\
Acme Corp\tfounded_by\tAnn Lee
Acme Corp\tchief_executive_officer\tBob Stone
Acme Corp\theadquarters_location\tParis
Bolt Ltd\tfounded_by\tCara Ray
Bolt Ltd\tchief_executive_officer\tDan Fox
Bolt Ltd\theadquarters_location\tLyon
Rovers\tcaptain\tEli Moss
Rovers\tnational_team\tFrance
Ann Lee\tplace_of_birth\tLyon
Eli Moss\tplace_of_birth\tNice
"""


def engine_over(root: Path, kb_file: Path, name: str) -> Engine:
    """An engine over one KB file imported into a fresh workspace under `root`."""
    workspace = Workspace(root / "home")
    workspace.import_file(kb_file, name=name)
    return Engine(workspace)


@pytest.fixture(scope="module")
def firms(tmp_path_factory: pytest.TempPathFactory) -> Engine:
    root = tmp_path_factory.mktemp("firms-kb")
    (root / "firms.tsv").write_text(FIRMS, encoding="utf-8")
    return engine_over(root, root / "firms.tsv", "firms")


def test_a_phrase_wordnet_knows_gives_its_first_word_the_phrase_s_sense(firms) -> None:
    kg = firms.kg("firms")
    hq = next(r.id for r in kg.relations if "headquarters" in r.words)
    assert not lexicon_for(kg).senses("main")
    qa = analyse("where is the main office of Bolt Ltd", kg)
    row = qa.word_tokens.index(qa.words.index("main"))
    # (the encoder alone scores "main" for it at 0.04: a word, not a phrase)
    assert qa.scores[row, qa.semantics.code[hq]] >= 0.7 * MODIFIER_SHARE - 1e-6


def test_a_qualified_head_is_not_met_by_a_synonym_of_its_head_alone(firms) -> None:
    kg = firms.kg("firms")
    national = next(r.id for r in kg.relations if "national" in r.words)
    assert national not in lexicon_for(kg).senses("squad")  # a squad need not be national


# the dev KBs' tuning questions each of which the encoders alone read wrong (checked with
# SENSE_SCORE set to 0): "set up" is "found", "pass away" is "die" (— "death"), …
@pytest.mark.parametrize(
    ("kb", "file", "question", "answer"),
    [
        ("business", "kb.nt", "who set up Delmar Industries", "Jing Zheng"),
        ("family", "kb.tsv", "what country did Karin Karlsson pass away in?", "United Kingdom"),
        ("family", "kb.tsv", "which people passed away in Mexico", "Arturo Jiménez"),
        ("music", "kb.tsv", "who set up the label of Breathe Anyway's album", "Jarrah Carmody"),
    ],
)
def test_a_word_sharing_a_sense_with_a_label_names_its_relation(
        tmp_path: Path, kb: str, file: str, question: str, answer: str) -> None:  # fmt: skip
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / kb / file
    assert answer in engine_over(tmp_path, dev_kb, kb).ask(question, kb=kb).answer_labels[:3]


# the family dev KB's tuning questions whose kin word the word vectors read weakly (each
# fails with SYNONYM_SHARE set to 0): "papa" is read as "dad", "hubby" as "husband"
@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("tell me who Lukas Schmidt's papa is", "Günter Schmidt"),
        ("what kind of work does Emiko Wróbel's hubby do", "physician"),
    ],
)
def test_a_noun_read_weakly_is_read_by_its_synonyms(
        tmp_path: Path, question: str, answer: str) -> None:  # fmt: skip
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / "family" / "kb.tsv"
    assert engine_over(tmp_path, dev_kb, "family").ask(question, kb="family").answer_labels[:1] \
        == [answer]


def test_a_genus_is_the_first_noun_phrase_of_a_rare_words_definition() -> None:
    assert "advisor" in lexnet.genus_words("mentor")  # "a wise and trusted guide and advisor"
    # "your alma mater is a school you graduated from": past the word itself, up to "you"
    assert lexnet.genus_words("alma_mater") == ("a", "school")
    assert lexnet.genus_words("head") == ()  # four senses: which one a question means, unknown
    assert lexnet.genus_words("xqzzy") == ()


MENTORS = """\
Ada Lind\tdoctoral_advisor\tBo Ek
Ada Lind\tcollaborator\tCy Holm
Bo Ek\tcollaborator\tCy Holm
Cy Holm\tdoctoral_advisor\tDag Ros
Dag Ros\tcollaborator\tAda Lind
Ada Lind\tfield_of_work\tgeology
Bo Ek\tfield_of_work\tchemistry
"""


def test_a_noun_nothing_reads_is_read_by_its_definitions_genus(tmp_path: Path) -> None:
    # the word vectors put "mentor" nearer `collaborator` than `doctoral advisor`; WordNet
    # calls a mentor "a wise and trusted guide and *advisor*" (fails with DEFINITION_SHARE 0)
    kb = tmp_path / "kb.tsv"
    kb.write_text(MENTORS, encoding="utf-8")
    engine = engine_over(tmp_path, kb, "mentors")
    assert engine.ask("who was Ada Lind's mentor?", kb="mentors").answer_labels[:1] == ["Bo Ek"]


def test_a_word_defined_as_a_term_for_another_names_that_one() -> None:
    """WordNet's convention for slang and familiar words: "informal terms for a mother"."""
    assert lexnet.term_for("mom") == "mother" and lexnet.term_for("dad") == "father"
    assert lexnet.term_for("cop") == "policeman" and lexnet.term_for("missus") == "wife"
    assert lexnet.term_for("mother") is None and lexnet.term_for("sibling") is None
    assert lexnet.term_for("granny") is None  # "the mother of your father or mother"


def test_a_compound_noun_is_one_the_dictionary_lists() -> None:
    assert lexnet.is_noun("record_company") and lexnet.is_noun("alma_mater")
    assert not lexnet.is_noun("record_label") and not lexnet.is_noun("work_in")


def test_a_short_definition_is_a_paraphrase() -> None:
    assert lexnet.paraphrase_words("work") == ("employed",)  # "be employed"
    assert lexnet.paraphrase_words("studied") == ("student",)  # "be a student"
    assert lexnet.paraphrase_words("pen") == ()  # "produce a literary work": a definition


SCIENTISTS = """\
Ada Lind\temployer\tNorrvik Institute
Ada Lind\tfield_of_work\tgeology
Ada Lind\teducated_at\tHalden College
Ada Lind\tcollaborator\tBo Ek
Bo Ek\temployer\tHalden College
Bo Ek\tfield_of_work\tchemistry
Bo Ek\teducated_at\tNorrvik Institute
Cy Holm\temployer\tNorrvik Institute
Cy Holm\tfield_of_work\tgeology
Norrvik Institute\tlocated_in\tMalmo
Halden College\tlocated_in\tOslo
"""


@pytest.mark.parametrize(
    ("question", "answers"),
    [
        # "work" is "be *employed*" (`employer`), not the "work" of `field of work`, where no
        # word says "field" (each gave a field before: "geology", "chemistry")
        ("which organisation does Ada Lind work for", ["Norrvik Institute"]),
        ("who works for Norrvik Institute", ["Ada Lind", "Cy Holm"]),
    ],
)
def test_a_verb_is_read_by_its_paraphrase_not_by_a_label_complement(
        tmp_path: Path, question: str, answers: list[str]) -> None:  # fmt: skip
    kb = tmp_path / "kb.tsv"
    kb.write_text(SCIENTISTS, encoding="utf-8")
    engine = engine_over(tmp_path, kb, "scientists")
    assert engine.ask(question, kb="scientists").answer_labels == answers


def ask_dev_kb(tmp_path: Path, kb: str, question: str):
    """One question on a dev KB (`benchmarks/data/KB/kb.tsv`), imported afresh."""
    dev_kb = Path(__file__).resolve().parents[1] / "benchmarks" / "data" / kb / "kb.tsv"
    return engine_over(tmp_path, dev_kb, kb).ask(question, kb=kb)


def test_study_is_being_a_student(tmp_path: Path) -> None:
    # the science dev KB's tuning question: "study" is "be a *student*" — `educated at`
    # (fails with PARAPHRASE_SHARE 0: the advisor's advisor)
    trace = ask_dev_kb(tmp_path, "science", "Where did Zofia Kamińska's doctoral advisor study?")
    assert evidence_path(trace).split(" → ")[-1:] == ["educated at"]


def test_a_preposition_left_at_the_end_makes_no_phrase(tmp_path: Path) -> None:
    # the science dev KB's tuning question: "in" is the fronted "which city"'s, so "work in"
    # is no phrase (WordNet's "add by mixing"), which had kept "work" from its paraphrase
    # ("be employed"): the walk went to the city X was born in
    trace = ask_dev_kb(tmp_path, "science", "which city does Dwight Holloway work in")
    assert evidence_path(trace) == "employer → located in"
    assert trace.answer_labels == ["Seattle"]


def test_a_label_noun_is_read_by_the_verb_its_definition_says() -> None:
    """A residence is "any address at which you *dwell*": "where does X *live*" shares a
    sense with `place of residence` through that verb ("live" and "dwell" are one sense),
    though no form, vector or sense of "residence" itself links them — not by a noun that
    is no verb ("do for a *living*"), not by a light verb ("an expert who *gives* advice")
    and not by a clause said of another noun ("powers that *control* destiny")."""
    assert lexnet.defining_verbs("residence") == ("dwell",)
    assert lexnet.defining_verbs("advisor") == ()
    assert lexnet.defining_verbs("religion") == ()
    residence = lexnet.label_senses_with_gloss("residence", "n")
    assert lexnet.shared_sense("live", residence) == lexnet.GLOSS_VERB
    assert lexnet.shared_sense("lives", residence) == lexnet.GLOSS_VERB
    assert lexnet.shared_sense("living", residence) == 0.0
    assert lexnet.shared_sense("live", lexnet.label_senses("residence", "n")) == 0.0


def test_where_someone_lives_is_their_place_of_residence(tmp_path: Path) -> None:
    # the family dev KB's tuning question (born in Montreal, living in Abuja): before the
    # definition's verb was read, "lives" named nothing and the birthplace answered
    trace = ask_dev_kb(tmp_path, "family", "tell me where Madeleine Richard lives now")
    assert evidence_path(trace) == "place of residence"
    assert trace.answer_labels == ["Abuja"]


def test_a_label_noun_is_read_by_the_noun_its_definition_says_it_is() -> None:
    """A profession is "an *occupation* requiring special education": a question word that
    shares the first sense of that genus ("job", "line of work" — one synset with
    "occupation") shares a sense with `profession`, though no form, vector or sense of
    "profession" itself links them; only a definition that opens "a N requiring / that / of"
    says its genus ("any address at which you dwell" says none)."""
    assert lexnet.defining_genera("residence") == ()
    profession = lexnet.label_senses_with_gloss("profession", "n")
    assert lexnet.shared_sense("job", profession) == lexnet.GLOSS_GENUS
    assert lexnet.shared_sense("line_of_work", profession) == lexnet.GLOSS_GENUS
    assert lexnet.shared_sense("job", lexnet.label_senses("profession", "n")) == 0.0


def test_a_job_is_a_profession(tmp_path: Path) -> None:
    # the family dev KB's tuning question: "job" named `employer` better by its vector
    trace = ask_dev_kb(tmp_path, "family", "Li Jing's husband's job")
    assert evidence_path(trace) == "spouse → profession"


def test_a_compound_noun_in_the_plural_has_its_lemma() -> None:
    # "X's children's *alma maters*": WordNet lists the compound in the singular only
    assert lexnet.lemmas("alma_maters") == ("alma_mater",)
    assert lexnet.lemmas("holding_companies") == ("holding_company",)
    assert lexnet.lemmas("passed_away") == ("pass_away",)  # a verb's first word, as before
