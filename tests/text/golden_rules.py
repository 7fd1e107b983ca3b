"""The Golden Rules of the Pragmatic Segmenter: edge cases of sentence segmentation, each a text
and its expected sentences, as `(name, text, expected)` tuples.

Sources (quoted verbatim; the names keep the rules' numbers and titles):

- the "Golden Rules" section of the Pragmatic Segmenter's README (Kevin Dias,
  https://github.com/diasks2/pragmatic_segmenter, MIT): English rules 1-52, German 1-3,
  Japanese 1-5, Russian 1-3, Spanish 1-5;
- its language specs for the languages the README lists no rules for:
  `spec/pragmatic_segmenter/languages/chinese_spec.rb` (Chinese #001) and `french_spec.rb`
  (French #001-#005);
- pySBD's test suite (https://github.com/nipunsadvilkar/pySBD, MIT), which runs these rules:
  `tests/lang/test_chinese.py` adds the second Chinese rule (an end mark inside a title,
  《摔跤吧！爸爸》).

`ENGLISH` holds the 48 English rules pySBD's `tests/lang/test_english.py` runs without text
cleaning: rules 1-39 and 43-51. `ENGLISH_EXTRA` holds the other four: 40-42 (errant line breaks,
which the Pragmatic Segmenter passes only with its text cleaning, which joins lines) and 52 (no
whitespace between sentences). In the README's listing, rule 26's input shows its quotes
escaped (`\\"`) and rules 40-42 show their line breaks as `\\n`; they are plain quotes and line
breaks here, as in pySBD.

A segmenter that reports offsets cannot remove a line break inside a sentence, so the tests
compare sentences (found and expected alike) with their lines joined
(`partita.text._whitespace.join_lines`): for a sentence without a line break that is the sentence
itself.
"""

from __future__ import annotations

GoldenRule = tuple[str, str, list[str]]

ENGLISH: tuple[GoldenRule, ...] = (
    (
        "en-01 simple period to end sentence",
        "Hello World. My name is Jonas.",
        ["Hello World.", "My name is Jonas."],
    ),
    (
        "en-02 question mark to end sentence",
        "What is your name? My name is Jonas.",
        ["What is your name?", "My name is Jonas."],
    ),
    (
        "en-03 exclamation point to end sentence",
        "There it is! I found it.",
        ["There it is!", "I found it."],
    ),
    (
        "en-04 one letter upper case abbreviations",
        "My name is Jonas E. Smith.",
        ["My name is Jonas E. Smith."],
    ),
    (
        "en-05 one letter lower case abbreviations",
        "Please turn to p. 55.",
        ["Please turn to p. 55."],
    ),
    (
        "en-06 two letter lower case abbreviations in the middle of a sentence",
        "Were Jane and co. at the party?",
        ["Were Jane and co. at the party?"],
    ),
    (
        "en-07 two letter upper case abbreviations in the middle of a sentence",
        "They closed the deal with Pitt, Briggs & Co. at noon.",
        ["They closed the deal with Pitt, Briggs & Co. at noon."],
    ),
    (
        "en-08 two letter lower case abbreviations at the end of a sentence",
        "Let's ask Jane and co. They should know.",
        ["Let's ask Jane and co.", "They should know."],
    ),
    (
        "en-09 two letter upper case abbreviations at the end of a sentence",
        "They closed the deal with Pitt, Briggs & Co. It closed yesterday.",
        ["They closed the deal with Pitt, Briggs & Co.", "It closed yesterday."],
    ),
    (
        "en-10 two letter (prepositive) abbreviations",
        "I can see Mt. Fuji from here.",
        ["I can see Mt. Fuji from here."],
    ),
    (
        "en-11 two letter (prepositive & postpositive) abbreviations",
        "St. Michael's Church is on 5th st. near the light.",
        ["St. Michael's Church is on 5th st. near the light."],
    ),
    (
        "en-12 possesive two letter abbreviations",
        "That is JFK Jr.'s book.",
        ["That is JFK Jr.'s book."],
    ),
    (
        "en-13 multi-period abbreviations in the middle of a sentence",
        "I visited the U.S.A. last year.",
        ["I visited the U.S.A. last year."],
    ),
    (
        "en-14 multi-period abbreviations at the end of a sentence",
        "I live in the E.U. How about you?",
        ["I live in the E.U.", "How about you?"],
    ),
    (
        "en-15 U.S. as sentence boundary",
        "I live in the U.S. How about you?",
        ["I live in the U.S.", "How about you?"],
    ),
    (
        "en-16 U.S. as non sentence boundary with next word capitalized",
        "I work for the U.S. Government in Virginia.",
        ["I work for the U.S. Government in Virginia."],
    ),
    (
        "en-17 U.S. as non sentence boundary",
        "I have lived in the U.S. for 20 years.",
        ["I have lived in the U.S. for 20 years."],
    ),
    (
        "en-18 A.M. / P.M. as non sentence boundary and sentence boundary",
        "At 5 a.m. Mr. Smith went to the bank. He left the bank at 6 P.M. Mr. Smith then went to"
        " the store.",
        [
            "At 5 a.m. Mr. Smith went to the bank.",
            "He left the bank at 6 P.M.",
            "Mr. Smith then went to the store.",
        ],
    ),
    (
        "en-19 number as non sentence boundary",
        "She has $100.00 in her bag.",
        ["She has $100.00 in her bag."],
    ),
    (
        "en-20 number as sentence boundary",
        "She has $100.00. It is in her bag.",
        ["She has $100.00.", "It is in her bag."],
    ),
    (
        "en-21 parenthetical inside sentence",
        "He teaches science (He previously worked for 5 years as an engineer.) at the local"
        " University.",
        [
            "He teaches science (He previously worked for 5 years as an engineer.) at the local"
            " University."
        ],
    ),
    (
        "en-22 email addresses",
        "Her email is Jane.Doe@example.com. I sent her an email.",
        ["Her email is Jane.Doe@example.com.", "I sent her an email."],
    ),
    (
        "en-23 web addresses",
        "The site is: https://www.example.50.com/new-site/awesome_content.html. Please check it"
        " out.",
        [
            "The site is: https://www.example.50.com/new-site/awesome_content.html.",
            "Please check it out.",
        ],
    ),
    (
        "en-24 single quotations inside sentence",
        "She turned to him, 'This is great.' she said.",
        ["She turned to him, 'This is great.' she said."],
    ),
    (
        "en-25 double quotations inside sentence",
        'She turned to him, "This is great." she said.',
        ['She turned to him, "This is great." she said.'],
    ),
    (
        "en-26 double quotations at the end of a sentence",
        'She turned to him, "This is great." She held the book out to show him.',
        ['She turned to him, "This is great."', "She held the book out to show him."],
    ),
    (
        "en-27 double punctuation (exclamation point)",
        "Hello!! Long time no see.",
        ["Hello!!", "Long time no see."],
    ),
    (
        "en-28 double punctuation (question mark)",
        "Hello?? Who is there?",
        ["Hello??", "Who is there?"],
    ),
    (
        "en-29 double punctuation (exclamation point / question mark)",
        "Hello!? Is that you?",
        ["Hello!?", "Is that you?"],
    ),
    (
        "en-30 double punctuation (question mark / exclamation point)",
        "Hello?! Is that you?",
        ["Hello?!", "Is that you?"],
    ),
    (
        "en-31 list (period followed by parens and no period to end item)",
        "1.) The first item 2.) The second item",
        ["1.) The first item", "2.) The second item"],
    ),
    (
        "en-32 list (period followed by parens and period to end item)",
        "1.) The first item. 2.) The second item.",
        ["1.) The first item.", "2.) The second item."],
    ),
    (
        "en-33 list (parens and no period to end item)",
        "1) The first item 2) The second item",
        ["1) The first item", "2) The second item"],
    ),
    (
        "en-34 list (parens and period to end item)",
        "1) The first item. 2) The second item.",
        ["1) The first item.", "2) The second item."],
    ),
    (
        "en-35 list (period to mark list and no period to end item)",
        "1. The first item 2. The second item",
        ["1. The first item", "2. The second item"],
    ),
    (
        "en-36 list (period to mark list and period to end item)",
        "1. The first item. 2. The second item.",
        ["1. The first item.", "2. The second item."],
    ),
    (
        "en-37 list with bullet",
        "• 9. The first item • 10. The second item",
        ["• 9. The first item", "• 10. The second item"],
    ),
    (
        "en-38 list with hypthen",
        "⁃9. The first item ⁃10. The second item",
        ["⁃9. The first item", "⁃10. The second item"],
    ),
    (
        "en-39 alphabetical list",
        "a. The first item b. The second item c. The third list item",
        ["a. The first item", "b. The second item", "c. The third list item"],
    ),
    (
        "en-43 geo coordinates",
        "You can find it at N°. 1026.253.553. That is where the treasure is.",
        ["You can find it at N°. 1026.253.553.", "That is where the treasure is."],
    ),
    (
        "en-44 named entities with an exclamation point",
        "She works at Yahoo! in the accounting department.",
        ["She works at Yahoo! in the accounting department."],
    ),
    (
        "en-45 I as a sentence boundary and I as an abbreviation",
        "We make a good team, you and I. Did you see Albert I. Jones yesterday?",
        ["We make a good team, you and I.", "Did you see Albert I. Jones yesterday?"],
    ),
    (
        "en-46 ellipsis at end of quotation",
        "Thoreau argues that by simplifying one’s life, “the laws of the universe will appear less"
        " complex. . . .”",
        [
            "Thoreau argues that by simplifying one’s life, “the laws of the universe will appear"
            " less complex. . . .”"
        ],
    ),
    (
        "en-47 ellipsis with square brackets",
        '"Bohr [...] used the analogy of parallel stairways [...]" (Smith 55).',
        ['"Bohr [...] used the analogy of parallel stairways [...]" (Smith 55).'],
    ),
    (
        "en-48 ellipsis as sentence boundary (standard ellipsis rules)",
        "If words are left off at the end of a sentence, and that is all that is omitted, indicate"
        " the omission with ellipsis marks (preceded and followed by a space) and then indicate"
        " the end of the sentence with a period . . . . Next sentence.",
        [
            "If words are left off at the end of a sentence, and that is all that is omitted,"
            " indicate the omission with ellipsis marks (preceded and followed by a space) and"
            " then indicate the end of the sentence with a period . . . .",
            "Next sentence.",
        ],
    ),
    (
        "en-49 ellipsis as sentence boundary (non-standard ellipsis rules)",
        "I never meant that.... She left the store.",
        ["I never meant that....", "She left the store."],
    ),
    (
        "en-50 ellipsis as non sentence boundary",
        "I wasn’t really ... well, what I mean...see . . . what I'm saying, the thing is . . . I"
        " didn’t mean it.",
        [
            "I wasn’t really ... well, what I mean...see . . . what I'm saying, the thing is . . ."
            " I didn’t mean it."
        ],
    ),
    (
        "en-51 4-dot ellipsis",
        "One further habit which was somewhat weakened . . . was that of combining words into"
        " self-interpreting compounds. . . . The practice was not abandoned. . . .",
        [
            "One further habit which was somewhat weakened . . . was that of combining words into"
            " self-interpreting compounds.",
            ". . . The practice was not abandoned. . . .",
        ],
    ),
)
"""The 48 English rules pySBD runs (README rules 1-39 and 43-51)."""

ENGLISH_EXTRA: tuple[GoldenRule, ...] = (
    (
        "en-40 errant newline in the middle of a sentence (PDF)",
        "This is a sentence\ncut off in the middle because pdf.",
        ["This is a sentence\ncut off in the middle because pdf."],
    ),
    (
        "en-41 errant newline in the middle of a sentence",
        "It was a cold \nnight in the city.",
        ["It was a cold night in the city."],
    ),
    (
        "en-42 lower case list separated by newline",
        "features\ncontact manager\nevents, activities\n",
        ["features", "contact manager", "events, activities"],
    ),
    (
        "en-52 no whitespace in between sentences",
        "Hello world.Today is Tuesday.Mr. Smith went to the store and bought 1,000.That is a lot.",
        [
            "Hello world.",
            "Today is Tuesday.",
            "Mr. Smith went to the store and bought 1,000.",
            "That is a lot.",
        ],
    ),
)
"""The other four English rules: errant line breaks (40-42), no whitespace (52)."""

CHINESE: tuple[GoldenRule, ...] = (
    (
        "zh-01 full stop (Pragmatic Segmenter chinese_spec #001)",
        "安永已聯繫周怡安親屬，協助辦理簽證相關事宜，周怡安家屬1月1日晚間搭乘東方航空班機抵達上海，"
        "他們步入入境大廳時神情落寞、不發一語。周怡安來自台中，去年剛從元智大學畢業，同年9月加入安永。",
        [
            "安永已聯繫周怡安親屬，協助辦理簽證相關事宜，周怡安家屬1月1日晚間搭乘東方航空班機抵達上海，"
            "他們步入入境大廳時神情落寞、不發一語。",
            "周怡安來自台中，去年剛從元智大學畢業，同年9月加入安永。",
        ],
    ),
    (
        "zh-02 end mark inside a title (pySBD test_chinese)",
        "我们明天一起去看《摔跤吧！爸爸》好吗？好！",
        ["我们明天一起去看《摔跤吧！爸爸》好吗？", "好！"],
    ),
)

JAPANESE: tuple[GoldenRule, ...] = (
    (
        "ja-01 simple period to end sentence",
        "これはペンです。それはマーカーです。",
        ["これはペンです。", "それはマーカーです。"],
    ),
    (
        "ja-02 question mark to end sentence",
        "それは何ですか？ペンですか？",
        ["それは何ですか？", "ペンですか？"],
    ),
    (
        "ja-03 exclamation point to end sentence",
        "良かったね！すごい！",
        ["良かったね！", "すごい！"],
    ),
    (
        "ja-04 quotation",
        "自民党税制調査会の幹部は、「引き下げ幅は３．２９％以上を目指すことになる」と指摘していて、"
        "今後、公明党と合意したうえで、３０日に決定する与党税制改正大綱に盛り込むことにしています。",
        [
            "自民党税制調査会の幹部は、「引き下げ幅は３．２９％以上を目指すことになる」と指摘していて、"
            "今後、公明党と合意したうえで、３０日に決定する与党税制改正大綱に盛り込むことにしています。"
        ],
    ),
    (
        "ja-05 errant newline in the middle of a sentence",
        "これは父の\n家です。",
        ["これは父の家です。"],
    ),
)

GERMAN: tuple[GoldenRule, ...] = (
    (
        "de-01 quotation at end of sentence",
        "„Ich habe heute keine Zeit“, sagte die Frau und flüsterte leise: „Und auch keine Lust.“"
        " Wir haben 1.000.000 Euro.",
        [
            "„Ich habe heute keine Zeit“, sagte die Frau und flüsterte leise: „Und auch keine"
            " Lust.“",
            "Wir haben 1.000.000 Euro.",
        ],
    ),
    (
        "de-02 abbreviations",
        "Es gibt jedoch einige Vorsichtsmaßnahmen, die Du ergreifen kannst, z. B. ist es sehr"
        " empfehlenswert, dass Du Dein Zuhause von allem Junkfood befreist.",
        [
            "Es gibt jedoch einige Vorsichtsmaßnahmen, die Du ergreifen kannst, z. B. ist es sehr"
            " empfehlenswert, dass Du Dein Zuhause von allem Junkfood befreist."
        ],
    ),
    (
        "de-03 numbers",
        "Was sind die Konsequenzen der Abstimmung vom 12. Juni?",
        ["Was sind die Konsequenzen der Abstimmung vom 12. Juni?"],
    ),
)

FRENCH: tuple[GoldenRule, ...] = (
    (
        "fr-01 (french_spec #001)",
        "Après avoir été l'un des acteurs du projet génome humain, le Genoscope met aujourd'hui le"
        " cap vers la génomique environnementale. L'exploitation des données de séquences,"
        " prolongée par l'identification expérimentale des fonctions biologiques, notamment dans"
        " le domaine de la biocatalyse, ouvrent des perspectives de développements en"
        " biotechnologie industrielle.",
        [
            "Après avoir été l'un des acteurs du projet génome humain, le Genoscope met"
            " aujourd'hui le cap vers la génomique environnementale.",
            "L'exploitation des données de séquences, prolongée par l'identification"
            " expérimentale des fonctions biologiques, notamment dans le domaine de la"
            " biocatalyse, ouvrent des perspectives de développements en biotechnologie"
            " industrielle.",
        ],
    ),
    (
        "fr-02 (french_spec #002)",
        '"Airbus livrera comme prévu 30 appareils 380 cette année avec en ligne de mire'
        " l'objectif d'équilibre financier du programme en 2015\", a-t-il ajouté.",
        [
            '"Airbus livrera comme prévu 30 appareils 380 cette année avec en ligne de mire'
            " l'objectif d'équilibre financier du programme en 2015\", a-t-il ajouté."
        ],
    ),
    (
        "fr-03 (french_spec #003)",
        "À 11 heures ce matin, la direction ne décomptait que douze grévistes en tout sur la"
        " France : ce sont ceux du site de Saran (Loiret), dont l’effectif est de 809 salariés,"
        " dont la moitié d’intérimaires. Elle assure que ce mouvement « n’aura aucun impact sur"
        " les livraisons ».",
        [
            "À 11 heures ce matin, la direction ne décomptait que douze grévistes en tout sur la"
            " France : ce sont ceux du site de Saran (Loiret), dont l’effectif est de 809"
            " salariés, dont la moitié d’intérimaires.",
            "Elle assure que ce mouvement « n’aura aucun impact sur les livraisons ».",
        ],
    ),
    (
        "fr-04 (french_spec #004)",
        "Ce modèle permet d’afficher le texte « LL.AA.II.RR. » pour l’abréviation de « Leurs"
        " Altesses impériales et royales » avec son infobulle.",
        [
            "Ce modèle permet d’afficher le texte « LL.AA.II.RR. » pour l’abréviation de « Leurs"
            " Altesses impériales et royales » avec son infobulle."
        ],
    ),
    (
        "fr-05 (french_spec #005)",
        "Les derniers ouvrages de Intercept Ltd. sont ici.",
        ["Les derniers ouvrages de Intercept Ltd. sont ici."],
    ),
)

SPANISH: tuple[GoldenRule, ...] = (
    (
        "es-01 question mark to end sentence",
        "¿Cómo está hoy? Espero que muy bien.",
        ["¿Cómo está hoy?", "Espero que muy bien."],
    ),
    (
        "es-02 exclamation point to end sentence",
        "¡Hola señorita! Espero que muy bien.",
        ["¡Hola señorita!", "Espero que muy bien."],
    ),
    (
        "es-03 abbreviations",
        "Hola Srta. Ledesma. Buenos días, soy el Lic. Naser Pastoriza, y él es mi padre, el Dr."
        " Naser.",
        [
            "Hola Srta. Ledesma.",
            "Buenos días, soy el Lic. Naser Pastoriza, y él es mi padre, el Dr. Naser.",
        ],
    ),
    (
        "es-04 numbers",
        "¡La casa cuesta $170.500.000,00! ¡Muy costosa! Se prevé una disminución del 12.5% para el"
        " próximo año.",
        [
            "¡La casa cuesta $170.500.000,00!",
            "¡Muy costosa!",
            "Se prevé una disminución del 12.5% para el próximo año.",
        ],
    ),
    (
        "es-05 quotations",
        "«Ninguna mente extraordinaria está exenta de un toque de demencia.», dijo Aristóteles.",
        ["«Ninguna mente extraordinaria está exenta de un toque de demencia.», dijo Aristóteles."],
    ),
)

RUSSIAN: tuple[GoldenRule, ...] = (
    (
        "ru-01 abbreviations",
        "Объем составляет 5 куб.м.",
        ["Объем составляет 5 куб.м."],
    ),
    (
        "ru-02 quotations",
        "Маленькая девочка бежала и кричала: «Не видали маму?».",
        ["Маленькая девочка бежала и кричала: «Не видали маму?»."],
    ),
    (
        "ru-03 numbers",
        "Сегодня 27.10.14",
        ["Сегодня 27.10.14"],
    ),
)

OTHER_LANGUAGES: dict[str, tuple[GoldenRule, ...]] = {
    "Chinese": CHINESE,
    "Japanese": JAPANESE,
    "German": GERMAN,
    "French": FRENCH,
    "Spanish": SPANISH,
    "Russian": RUSSIAN,
}
"""The rules of each language other than English, by language."""
