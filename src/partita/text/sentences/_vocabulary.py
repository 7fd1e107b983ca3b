"""The vocabulary of sentence segmentation: the characters that end, close and open a sentence,
and the words next to an end mark that decide whether it ends one.

Every name here is data (strings and frozensets); `_scanner` and `_words` hold the rules that use
it. Word lists are lower case unless their name ends in `_CASED` (looked up as written).
"""

from __future__ import annotations

__all__ = [
    "ABBREVIATIONS",
    "BULLETS",
    "CANDIDATE_STARTS",
    "CJK_CONTINUERS",
    "CLOSERS",
    "CLUSTER_TAIL",
    "CLUSTER_TAIL_MARKS",
    "JAPANESE_PARTICLES",
    "LATIN_END_MARKS",
    "MONTHS",
    "NEVER_FINAL",
    "NEVER_FINAL_CASED",
    "OPENERS",
    "PAIRS",
    "QUESTION_EXCLAMATION",
    "QUOTE_CLOSERS",
    "SENTENCE_STARTERS",
    "STRONG_END_MARKS",
    "WORD_SKIP",
]


def _words(text: str) -> frozenset[str]:
    """Return the words of `text` (separated by spaces) as a set."""
    return frozenset(text.split())


LATIN_END_MARKS = ".!?…‼⁇⁈⁉"
"""End marks of the scripts that separate words with spaces: they end a sentence only when
whitespace (or the end of the text) follows them and their closers."""

STRONG_END_MARKS = "。！？｡．" + "։؟۔।॥።፧"
"""End marks that end a sentence whatever follows them (Chinese and Japanese full-width and
half-width ideographic marks, the full-width full stop, and the unambiguous marks of Armenian,
Arabic, Urdu, Devanagari and Ethiopic), apart from the exceptions `_scanner` lists."""

QUESTION_EXCLAMATION = frozenset("!?‼⁇⁈⁉！？")
"""Marks that are never an abbreviation's or a number's period."""

CLOSERS = "\"'”’“‘»›)]}」』）》】〉〕〗〙〛｣"
"""Closing quotes and brackets: after an end mark they belong to the sentence it ends
(`He said "Stop." Then...`). `“` and `‘` close German quotes („...“)."""

QUOTE_CLOSERS = frozenset("\"'”’“‘»›」』")
"""The closers that end a quotation (a Japanese particle after one continues the sentence)."""

OPENERS = "\"'“‘„‚«‹([{¿¡「『《（【〈〔〖〘〚｢"
"""Opening quotes and brackets (and the Spanish inverted marks) that may start a word."""

WORD_SKIP = OPENERS + "—–-‒―*_ \t\u00a0"
"""What is skipped at the start of the next word to find its first letter or digit."""

BULLETS = "•⁃◦▪‣●▸►"
"""Bullets: one that follows whitespace starts a new sentence (an inline list item)."""

CANDIDATE_STARTS = LATIN_END_MARKS + STRONG_END_MARKS + BULLETS + "\n\u2029)）"
"""The characters the scan stops at: end marks, bullets, line breaks, and the parentheses of
`1)` list markers."""

CLUSTER_TAIL_MARKS = LATIN_END_MARKS + STRONG_END_MARKS
CLUSTER_TAIL = CLUSTER_TAIL_MARKS + CLOSERS
"""What extends a candidate: further end marks and closers (`?!`, `."`, `?».`, `.)`)."""

CJK_CONTINUERS = frozenset("，、；：,;:")
"""After a strong end mark, these show the sentence goes on (`……，` is a pause)."""

JAPANESE_PARTICLES = frozenset("とっのがはをにもでや")
"""A Japanese particle right after a quotation (`「行こう！」と言った`) continues the sentence."""

PAIRS = (
    ("(", ")"),
    ("[", "]"),
    ("«", "»"),
    ("‹", "›"),
    ("“", "”"),
    ("„", "“"),
    ("「", "」"),
    ("『", "』"),
    ("《", "》"),
    ("（", "）"),
    ("〈", "〉"),
    ("【", "】"),
)
"""Brackets and quotes whose inside is never cut when they close soon after (`《摔跤吧！爸爸》`,
`(He worked as an engineer. He left.)`). The ASCII double quote pairs with itself."""

NEVER_FINAL_CASED = frozenset({"St", "Ste", "Mt", "Ft", "Me", "Pr", "EE"})
"""Abbreviations that qualify the next word, whose lower-case form is a common word or another
abbreviation (`St. Michael` but `5th st.`; French `Me`, `Pr`; Spanish `EE. UU.`)."""

NEVER_FINAL = (
    # -- English titles and Latin abbreviations that always precede what they qualify --
    _words("mr mrs ms mx messrs mmes dr drs prof profs rev revd hon gen lt col capt cpt maj sgt")
    | _words("cmdr comdr adm brig gov sen rep pres supt insp atty fr sr sra srta sres srs")
    | _words("e.g i.e cf viz vs")
    # -- German --
    | _words("z.b d.h bzw vgl ggf evtl sog inkl exkl zzgl abzgl hr hrn dipl med rer nat kath")
    | _words("ev evang röm dt")
    # -- French, Spanish --
    | _words("mme mlle mmes mlles dra lic ing arq dña sto sta")
    # -- Russian --
    | _words("г гг ул пгт проф акад доц д-р им напр см ср св просп пр-т пер пл наб обл")
)
"""Abbreviations that never end a sentence: a title or a word that always qualifies the next
one (`Mr. Smith`, `e.g. The`, `z. B. ist`, `Lic. Naser`, `г. Волгоград`)."""

ABBREVIATIONS = (
    # -- English (and legal citations: Fed. R. Bankr. P.) --
    _words("co corp inc ltd llc plc bros dept univ assn est fig figs vol vols no nos nr p pp")
    | _words("ch chap sec sect art arts par para ed eds eq eqs ref refs ex approx ca cca al")
    | _words("etc jr esq phd hr hrs min mins max secs ft lb lbs oz kg km cm mm mi yd sq tel fax")
    | _words("ext op cit ibid ff seq ave blvd rd hwy fed bankr evid civ crim supp cir stat reg")
    | _words("regs proc app jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed")
    | _words("thu thur thurs fri sat sun")
    # -- German --
    | _words("str abs bd bde jh jhd jahrh mio mrd tsd usw geb gest verh okt dez")
    # -- French --
    | _words("n° nº janv févr avr juil déc av éd env")
    # -- Spanish --
    | _words("núm párr párrf pág págs aprox avda cap cía dpto ej hs lun mié jue vie sáb dom")
    | _words("ene abr ago dic máx mín admón cra ud uds")
    # -- Russian --
    | _words("руб коп долл дол тыс млн млрд кв куб км кг рис табл стр гл вв")
)
"""Abbreviations that may end a sentence: before a number they do not (`No. 5`, `p. 55`,
`Mar. 23`), before a capitalized word they do (`Pitt, Briggs & Co. It closed`)."""

SENTENCE_STARTERS = _words(
    "A After All Although An And As At Being But By Did Each Even For He Her His How However"
    " I If In It Its Millions More My No Now Our She So Some Such That The Their Then There"
    " These They This Those To We What When Where While Who Why With Yet You Your"
)
"""Words that start sentences far more often than they follow an initial or a multi-period
abbreviation: after `I.`, `E.` or `U.S.` a cut is made only before one of these (`I live in
the U.S. How about you?` but `the U.S. Government`, `Albert I. Jones`)."""

MONTHS = _words(
    "januar jänner februar märz april mai juni juli august september oktober november"
    " dezember jan feb mär apr jun jul aug sep sept okt nov dez jahrhundert jahrhunderts"
)
"""Words that follow a German ordinal (`am 3. Oktober`, `vom 12. Juni`, `im 19. Jahrhundert`):
a number's period before them does not end a sentence."""
