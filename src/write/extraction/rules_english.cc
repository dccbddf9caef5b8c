#include "write/extraction/rules_english.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "write/extraction/lexicon.h"

namespace engram::extraction::rules {
namespace {

using WordSet = std::unordered_set<std::string_view>;
using WordMap = std::unordered_map<std::string_view, std::string_view>;

bool In(const WordSet& set, std::string_view word) { return set.count(word) > 0; }

// ---- Lexicons (immutable statics, built on first use) -------------------------------------------

// Irregular past tenses and participles → base form.
const WordMap& IrregularPast() {
  static const WordMap kMap = {
      {"went", "go"},
      {"gone", "go"},
      {"got", "get"},
      {"gotten", "get"},
      {"bought", "buy"},
      {"had", "have"},
      {"made", "make"},
      {"saw", "see"},
      {"seen", "see"},
      {"took", "take"},
      {"taken", "take"},
      {"came", "come"},
      {"did", "do"},
      {"done", "do"},
      {"felt", "feel"},
      {"found", "find"},
      {"gave", "give"},
      {"given", "give"},
      {"kept", "keep"},
      {"left", "leave"},
      {"lost", "lose"},
      {"met", "meet"},
      {"paid", "pay"},
      {"ran", "run"},
      {"said", "say"},
      {"sold", "sell"},
      {"sent", "send"},
      {"spent", "spend"},
      {"sat", "sit"},
      {"stood", "stand"},
      {"taught", "teach"},
      {"thought", "think"},
      {"told", "tell"},
      {"understood", "understand"},
      {"won", "win"},
      {"wrote", "write"},
      {"written", "write"},
      {"ate", "eat"},
      {"eaten", "eat"},
      {"drank", "drink"},
      {"drunk", "drink"},
      {"drove", "drive"},
      {"driven", "drive"},
      {"flew", "fly"},
      {"flown", "fly"},
      {"grew", "grow"},
      {"grown", "grow"},
      {"knew", "know"},
      {"known", "know"},
      {"began", "begin"},
      {"begun", "begin"},
      {"brought", "bring"},
      {"built", "build"},
      {"caught", "catch"},
      {"chose", "choose"},
      {"chosen", "choose"},
      {"fell", "fall"},
      {"fallen", "fall"},
      {"fought", "fight"},
      {"forgot", "forget"},
      {"forgotten", "forget"},
      {"held", "hold"},
      {"heard", "hear"},
      {"led", "lead"},
      {"rode", "ride"},
      {"ridden", "ride"},
      {"rang", "ring"},
      {"sang", "sing"},
      {"sung", "sing"},
      {"slept", "sleep"},
      {"spoke", "speak"},
      {"spoken", "speak"},
      {"swam", "swim"},
      {"swum", "swim"},
      {"threw", "throw"},
      {"thrown", "throw"},
      {"wore", "wear"},
      {"worn", "wear"},
      {"woke", "wake"},
      {"became", "become"},
      {"broke", "break"},
      {"broken", "break"},
      {"drew", "draw"},
      {"drawn", "draw"},
      {"hung", "hang"},
      {"meant", "mean"},
      {"shot", "shoot"},
      {"sought", "seek"},
      {"fed", "feed"},
      {"fled", "flee"},
      {"learnt", "learn"},
      {"dreamt", "dream"},
      {"burnt", "burn"},
      {"spelt", "spell"},
      {"lent", "lend"},
      {"bent", "bend"},
      {"shown", "show"},
      {"showed", "show"},
      {"stole", "steal"},
      {"stolen", "steal"},
      {"froze", "freeze"},
      {"frozen", "freeze"},
      {"hid", "hide"},
      {"hidden", "hide"},
      {"bit", "bite"},
      {"dug", "dig"},
      {"stuck", "stick"},
      {"struck", "strike"},
      {"swung", "swing"},
      {"tore", "tear"},
      {"torn", "tear"},
      {"wove", "weave"},
      {"overcame", "overcome"},
      {"undertook", "undertake"},
      {"withdrew", "withdraw"},
      {"was", "be"},
      {"were", "be"},
      {"been", "be"},
      {"died", "die"},
      {"lied", "lie"},
      {"tied", "tie"},
      {"spoilt", "spoil"},
      {"leapt", "leap"},
      {"knelt", "kneel"},
      {"wept", "weep"},
      {"swept", "sweep"},
      {"crept", "creep"},
      {"bred", "breed"},
      {"sped", "speed"},
      {"bled", "bleed"},
      {"upheld", "uphold"},
      {"rebuilt", "rebuild"},
      {"retook", "retake"},
      {"redid", "redo"},
      {"mistook", "mistake"},
  };
  return kMap;
}

// Words in -ed that are adjectives, not past tenses, at a clause start or after "and".
const WordSet& AdjectivesInEd() {
  static const WordSet kSet = {
      "excited",     "interested",   "tired",         "bored",      "scared",        "worried",
      "surprised",   "amazed",       "pleased",       "thrilled",   "blessed",       "inspired",
      "motivated",   "impressed",    "exhausted",     "stressed",   "relieved",      "delighted",
      "overwhelmed", "touched",      "determined",    "focused",    "obsessed",      "annoyed",
      "frustrated",  "disappointed", "embarrassed",   "confused",   "shocked",       "satisfied",
      "dedicated",   "committed",    "related",       "supposed",   "based",         "located",
      "detailed",    "talented",     "gifted",        "advanced",   "experienced",   "skilled",
      "qualified",   "limited",      "crowded",       "packed",     "balanced",      "united",
      "mixed",       "complicated",  "sophisticated", "wicked",     "beloved",       "aged",
      "naked",       "rugged",       "sacred",        "wretched",   "hundred",       "kindred",
      "red",         "bed",          "shed",          "need",       "seed",          "feed",
      "weed",        "deed",         "speed",         "greed",      "breed",         "bleed",
      "proceed",     "succeed",      "exceed",        "indeed",     "thrilled",      "stoked",
      "grateful",    "glad",         "used",          "called",     "named",         "scheduled",
      "unexpected",  "unlimited",    "underrated",    "overrated",  "sophisticated", "animated",
      "talented",    "assorted",     "beaded",        "crooked",    "jagged",        "ragged",
      "hatred",      "wed",          "interested",    "rested",     "refreshed",     "energized",
      "heartbroken", "devastated",   "terrified",     "horrified",  "fascinated",    "intrigued",
      "humbled",     "honored",      "honoured",      "privileged", "spoiled",       "convinced",
  };
  return kSet;
}

// Words in -ing that are not verb forms.
const WordSet& NonVerbsInIng() {
  static const WordSet kSet = {
      "thing",
      "things",
      "something",
      "nothing",
      "anything",
      "everything",
      "morning",
      "evening",
      "king",
      "ring",
      "spring",
      "string",
      "wedding",
      "ceiling",
      "sibling",
      "pudding",
      "during",
      "darling",
      "earring",
      "sling",
      "sing",
      "bring",
      "sting",
      "swing",
      "wing",
      "cling",
      "fling",
      "ding",
      "awning",
      "lightning",
      "icing",
      "stuffing",
      "clothing",
      "bedding",
      "amazing",
      "interesting",
      "exciting",
      "inspiring",
      "boring",
      "charming",
      "stunning",
      "outstanding",
      "relaxing",
      "rewarding",
      "challenging",
      "fascinating",
      "refreshing",
      "annoying",
      "frustrating",
      "heartwarming",
      "touching",
      "calming",
      "soothing",
      "uplifting",
      "encouraging",
      "overwhelming",
      "exhausting",
      "satisfying",
      "fulfilling",
      "thrilling",
      "surprising",
      "shocking",
      "terrifying",
      "disappointing",
      "entertaining",
      "amusing",
      "promising",
      "caring",
      "loving",
      "willing",
      "upcoming",
      "ongoing",
      "outgoing",
      "empowering",
      "enriching",
      "humbling",
      "breathtaking",
      "mind-blowing",
      "welcoming",
      "awe-inspiring",
      "eye-opening",
      "thought-provoking",
      "heartbreaking",
      "relaxing",
      "freaking",
      "fucking",
      "damn",
      "nothing's",
      "something's",
      "everything's",
      "including",
      "regarding",
      "concerning",
      "according",
      "depending",
      "excluding",
      "pending",
      "following",
      "notwithstanding",
      "nothing",
      "spring",
      "ceiling",
      "king",
  };
  return kSet;
}

// Present-tense verbs of thinking, feeling and talking: no habit, no activity.
const WordSet& MentalVerbs() {
  static const WordSet kSet = {
      "think",    "know",       "guess",      "mean",       "hope",       "wish",     "feel",
      "believe",  "bet",        "suppose",    "agree",      "understand", "remember", "forget",
      "wonder",   "see",        "appreciate", "thank",      "need",       "want",     "say",
      "tell",     "ask",        "hear",       "mind",       "care",       "sound",    "seem",
      "look",     "let",        "imagine",    "admit",      "promise",    "miss",     "recommend",
      "suggest",  "realize",    "realise",    "notice",     "figure",     "doubt",    "reckon",
      "consider", "trust",      "worry",      "apologize",  "apologise",  "get",      "am",
      "is",       "are",        "was",        "were",       "be",         "can",      "could",
      "would",    "should",     "will",       "shall",      "may",        "might",    "must",
      "do",       "does",       "did",        "have",       "has",        "bet",      "love",
      "like",     "hate",       "cherish",    "admire",     "adore",      "totally",  "feel",
      "swear",    "tend",       "try",        "hope",       "gotta",      "mean",     "dunno",
      "gotcha",   "agree",      "envy",       "definitely", "really",     "kinda",    "learn",
      "find",     "wanna",      "gonna",      "appreciate", "value",      "treasure", "recall",
      "felt",     "thought",    "said",       "told",       "asked",      "knew",     "meant",
      "realized", "realised",   "noticed",    "wondered",   "guessed",    "figured",  "hoped",
      "wished",   "wanted",     "needed",     "seemed",     "sounded",    "looked",   "decided",
      "agreed",   "remembered", "forgot",     "believed",   "supposed",   "imagined", "admitted",
      "promised", "understood", "loved",      "liked",      "hated",
  };
  return kSet;
}

// Leading words that are skipped before a subject ("Yeah, I ...", "Honestly, we ...").
const WordSet& Leaders() {
  static const WordSet kSet = {
      "yeah",         "yes",
      "yep",          "yup",
      "yea",          "ya",
      "oh",           "ooh",
      "ah",           "aw",
      "aww",          "awww",
      "wow",          "whoa",
      "well",         "so",
      "and",          "but",
      "also",         "actually",
      "honestly",     "anyway",
      "anyways",      "plus",
      "hey",          "hi",
      "hello",        "ok",
      "okay",         "sure",
      "lol",          "haha",
      "hah",          "hahaha",
      "btw",          "um",
      "uh",           "hmm",
      "omg",          "luckily",
      "fortunately",  "unfortunately",
      "thankfully",   "sadly",
      "basically",    "then",
      "now",          "recently",
      "lately",       "finally",
      "still",        "definitely",
      "totally",      "absolutely",
      "really",       "because",
      "cause",        "'cause",
      "cuz",          "though",
      "although",     "while",
      "once",         "as",
      "after",        "before",
      "when",         "since",
      "until",        "whenever",
      "right",        "true",
      "indeed",       "exactly",
      "alright",      "nah",
      "oops",         "currently",
      "personally",   "originally",
      "eventually",   "yesterday",
      "today",        "tonight",
      "tomorrow",     "meanwhile",
      "otherwise",    "besides",
      "additionally", "furthermore",
      "moreover",     "however",
      "nowadays",     "sometimes",
      "usually",      "often",
      "always",       "generally",
      "normally",     "typically",
      "surprisingly", "interestingly",
      "obviously",    "seriously",
      "literally",    "frankly",
      "hopefully",    "apparently",
      "ultimately",   "initially",
      "later",        "earlier",
      "soon",         "first",
      "second",       "secondly",
      "lastly",       "too",
      "dude",         "man",
      "guys",         "girl",
      "bro",          "sis",
      "buddy",        "yay",
      "woohoo",       "hooray",
      "phew",         "gosh",
      "geez",         "jeez",
      "congrats",     "congratulations",
      "thanks",       "thank",
      "cool",         "great",
      "awesome",      "nice",
      "sweet",        "amazing",
      "wonderful",    "perfect",
      "fantastic",    "lovely",
      "good",         "glad",
      "maybe",        "perhaps",
      "probably",     "hopefully",
  };
  return kSet;
}

// "I think (that) ...", "I guess ...": the clause after them is read, these words skipped.
const WordSet& HedgeVerbs() {
  static const WordSet kSet = {"think",   "guess",   "believe",  "know",     "mean",
                               "bet",     "suppose", "reckon",   "feel",     "swear",
                               "admit",   "told",    "figured",  "realized", "realised",
                               "noticed", "thought", "remember", "forgot"};
  return kSet;
}

// Words that open a hypothetical clause: nothing in it is a fact.
const WordSet& HypotheticalOpeners() {
  static const WordSet kSet = {"if", "unless", "whether", "wish", "imagine", "suppose"};
  return kSet;
}

// Relation words after "my" ("my sister Mei", "my kids").
const WordSet& RelationWords() {
  static const WordSet kSet = {
      "mother",     "mom",           "mum",         "mommy",        "mama",          "father",
      "dad",        "daddy",         "papa",        "parents",      "wife",          "husband",
      "partner",    "spouse",        "fiance",      "fiancee",      "fiancé",        "fiancée",
      "boyfriend",  "girlfriend",    "bf",          "gf",           "son",           "sons",
      "daughter",   "daughters",     "kid",         "kids",         "child",         "children",
      "baby",       "babies",        "brother",     "brothers",     "sister",        "sisters",
      "sibling",    "siblings",      "twin",        "cousin",       "cousins",       "aunt",
      "auntie",     "aunty",         "uncle",       "niece",        "nephew",        "grandma",
      "grandpa",    "grandmother",   "grandfather", "grandparents", "granddaughter", "grandson",
      "grandkids",  "grandchildren", "friend",      "friends",      "bestie",        "buddy",
      "pal",        "roommate",      "neighbor",    "neighbour",    "neighbors",     "neighbours",
      "boss",       "manager",       "coworker",    "co-worker",    "coworkers",     "colleague",
      "colleagues", "teammate",      "teammates",   "classmate",    "classmates",    "mentor",
      "coach",      "family",        "fam",         "in-laws",      "stepmom",       "stepdad",
      "stepson",    "stepdaughter",  "dog",         "dogs",         "cat",           "cats",
      "puppy",      "pup",           "puppies",     "kitten",       "kittens",       "pet",
      "pets",       "turtle",        "turtles",     "hamster",      "parrot",        "horse",
      "bunny",      "rabbit",        "sis",         "bro",          "hubby",         "landlord",
      "therapist",  "doctor",        "teacher",     "students",     "team",          "band",
  };
  return kSet;
}

// Adjectives allowed between "my" and a relation word ("my little sister", "my best friend").
const WordSet& RelationAdjectives() {
  static const WordSet kSet = {
      "little", "big",     "older",  "younger", "elder",     "eldest",   "oldest",  "youngest",
      "best",   "old",     "new",    "dear",    "close",     "baby",     "twin",    "two",
      "three",  "four",    "lovely", "sweet",   "wonderful", "amazing",  "awesome", "great",
      "good",   "beloved", "late",   "ex",      "own",       "adorable", "cute",    "furry",
      "whole",  "other",   "oldest", "online",  "childhood", "high",     "school",  "college",
      "work",   "family",  "fellow", "future",  "step",      "half",     "grand",   "favorite",
  };
  return kSet;
}

// Words that can never be (or start) a person's name.
const WordSet& NotNames() {
  static const WordSet kSet = {
      "i",          "the",       "this",         "that",     "these",      "those",
      "it",         "there",     "here",         "what",     "who",        "how",
      "when",       "where",     "why",          "which",    "my",         "our",
      "your",       "his",       "her",          "their",    "we",         "you",
      "he",         "she",       "they",         "a",        "an",         "some",
      "any",        "all",       "every",        "each",     "no",         "not",
      "yes",        "yeah",      "thanks",       "thank",    "hey",        "hi",
      "hello",      "wow",       "oh",           "ok",       "okay",       "sure",
      "great",      "good",      "nice",         "cool",     "awesome",    "congrats",
      "sounds",     "looks",     "seems",        "just",     "so",         "and",
      "but",        "also",      "plus",         "well",     "maybe",      "perhaps",
      "life",       "family",    "people",       "everyone", "everything", "nothing",
      "something",  "someone",   "nobody",       "today",    "yesterday",  "tomorrow",
      "last",       "next",      "then",         "now",      "being",      "having",
      "seeing",     "making",    "doing",        "getting",  "going",      "love",
      "lol",        "haha",      "omg",          "btw",      "mom",        "dad",
      "monday",     "tuesday",   "wednesday",    "thursday", "friday",     "saturday",
      "sunday",     "january",   "february",     "march",    "april",      "june",
      "july",       "august",    "september",    "october",  "november",   "december",
      "english",    "chinese",   "god",          "jesus",    "lord",       "christmas",
      "easter",     "halloween", "thanksgiving", "new",      "happy",      "merry",
      "one",        "two",       "both",         "many",     "most",       "more",
      "much",       "such",      "very",         "really",   "totally",    "definitely",
      "absolutely", "honestly",  "actually",     "anyway",   "reading",    "writing",
      "painting",   "art",       "music",        "sports",   "nature",     "work",
      "i'm",        "i've",      "i'd",          "i'll",     "been",       "im",
      "ive",        "we're",     "we've",        "it's",     "that's",     "there's",
      "let's",      "here's",    "what's",       "gonna",    "wanna",      "gotta",
  };
  return kSet;
}

// Job nouns for "I'm a X" ("I'm a software engineer": the last word decides).
const WordSet& JobNouns() {
  static const WordSet kSet = {
      "nurse",        "doctor",        "chef",         "engineer",     "developer",
      "designer",     "artist",        "writer",       "teacher",      "student",
      "lawyer",       "scientist",     "programmer",   "manager",      "consultant",
      "accountant",   "pilot",         "firefighter",  "officer",      "soldier",
      "farmer",       "barista",       "cashier",      "waiter",       "waitress",
      "photographer", "musician",      "singer",       "dancer",       "actor",
      "actress",      "athlete",       "coach",        "mentor",       "therapist",
      "counselor",    "counsellor",    "psychologist", "researcher",   "professor",
      "lecturer",     "librarian",     "analyst",      "architect",    "plumber",
      "electrician",  "carpenter",     "mechanic",     "dentist",      "pharmacist",
      "vet",          "veterinarian",  "surgeon",      "paramedic",    "journalist",
      "editor",       "author",        "poet",         "painter",      "sculptor",
      "entrepreneur", "founder",       "ceo",          "cto",          "intern",
      "freelancer",   "volunteer",     "player",       "gamer",        "streamer",
      "youtuber",     "blogger",       "influencer",   "baker",        "tutor",
      "nanny",        "midwife",       "clerk",        "receptionist", "secretary",
      "assistant",    "administrator", "technician",   "sysadmin",     "tester",
      "owner",        "director",      "producer",     "filmmaker",    "novelist",
      "guitarist",    "pianist",       "drummer",      "violinist",    "economist",
      "physicist",    "chemist",       "biologist",    "nutritionist", "trainer",
      "instructor",   "social",        "worker",       "caregiver",    "pastor",
      "priest",       "shopkeeper",    "cook",         "contractor",   "realtor",
      "agent",        "broker",        "banker",       "investor",     "undergrad",
      "grad",         "phd",           "postdoc",      "resident",     "attorney",
      "judge",        "policeman",     "cop",          "detective",    "translator",
      "interpreter",  "illustrator",   "animator",     "composer",     "dj",
      "comedian",     "model",         "stylist",      "hairdresser",  "barber",
      "florist",      "gardener",      "janitor",      "driver",       "courier",
      "sailor",       "captain",       "astronaut",    "ranger",
  };
  return kSet;
}

// "I'm X" states (status predicate).
const WordSet& StatusWords() {
  static const WordSet kSet = {
      "married",       "single",      "divorced",     "engaged",
      "widowed",       "separated",   "vegetarian",   "vegan",
      "pescatarian",   "retired",     "pregnant",     "unemployed",
      "self-employed", "sober",       "allergic",     "lactose-intolerant",
      "diabetic",      "left-handed", "right-handed", "introverted",
      "extroverted",   "introvert",   "extrovert",    "homeschooled",
      "transgender",   "trans",       "gay",          "lesbian",
      "bisexual",      "nonbinary",   "non-binary",   "queer",
      "christian",     "muslim",      "buddhist",     "jewish",
      "hindu",         "atheist",     "catholic",     "celibate",
      "adopted",       "colorblind",  "deaf",         "blind",
      "disabled",      "autistic",    "gluten-free",  "dairy-free",
      "lactose-free",  "vegetarians", "vegans",       "newlyweds",
      "homeowners",    "homeowner",   "parent",       "parents",
      "mom",           "dad",         "mother",       "father",
      "grandmother",   "grandfather", "grandma",      "grandpa",
      "widow",         "widower",     "orphan",       "immigrant",
      "expat",         "citizen",     "nomad",
  };
  return kSet;
}

// Values that carry nothing on their own.
const WordSet& EmptyValues() {
  static const WordSet kSet = {
      "it",     "this",   "that",       "them",      "those",    "these",    "one",    "ones",
      "there",  "here",   "so",         "too",       "you",      "him",      "her",    "me",
      "us",     "myself", "yourself",   "ourselves", "lot",      "much",     "more",   "stuff",
      "things", "thing",  "everything", "something", "anything", "nothing",  "all",    "out",
      "up",     "some",   "any",        "what",      "how",      "why",      "yours",  "mine",
      "ya",     "u",      "well",       "lots",      "bit",      "way",      "time",   "fun",
      "back",   "again",  "home",       "around",    "along",    "together", "over",   "off",
      "in",     "on",     "at",         "to",        "for",      "with",     "about",  "really",
      "very",   "just",   "a",          "an",        "the",      "of",       "and",    "or",
      "but",    "is",     "was",        "be",        "been",     "i",        "we",     "they",
      "he",     "she",    "my",         "your",      "own",      "guys",     "either", "both",
      "else",   "such",   "few",        "bunch",     "couple",   "several",  "many",   "lots",
      "plenty", "most",
  };
  return kSet;
}

// Words that end a value (clause boundaries and adverbials), unless they open it.
const WordSet& ValueCutWords() {
  static const WordSet kSet = {
      "but",         "because",      "cause",     "'cause",   "cuz",        "which",
      "who",         "whom",         "whose",     "where",    "when",       "whenever",
      "while",       "if",           "unless",    "although", "though",     "since",
      "until",       "till",         "than",      "now",      "lately",     "recently",
      "anymore",     "again",        "too",       "yet",      "already",    "soon",
      "tonight",     "today",        "yesterday", "tomorrow", "daily",      "weekly",
      "monthly",     "regularly",    "usually",   "often",    "sometimes",  "always",
      "temporarily", "occasionally", "nowadays",  "ago",      "every",      "each",
      "once",        "twice",        "whereas",   "plus",     "lol",        "haha",
      "though",      "either",       "instead",   "anyway",   "anyways",    "afterwards",
      "afterward",   "later",        "earlier",   "tho",      "btw",        "hopefully",
      "maybe",       "perhaps",      "honestly",  "actually", "especially", "finally",
      "eventually",  "still",        "ever",      "overall",  "after",      "before",
      "during",      "whilst",
  };
  return kSet;
}

// Subject pronouns and auxiliaries after "and" that make it a clause boundary.
const WordSet& ClauseOpeners() {
  static const WordSet kSet = {
      "i",     "we",     "it",      "he",      "she",   "they",   "you",   "i'm",
      "it's",  "we're",  "that's",  "there",   "this",  "that",   "i've",  "we've",
      "she's", "he's",   "they're", "i'd",     "i'll",  "we'll",  "then",  "also",
      "now",   "so",     "was",     "is",      "are",   "were",   "have",  "had",
      "has",   "will",   "can",     "could",   "would", "should", "my",    "our",
      "his",   "her",    "their",   "there's", "it'll", "it'd",   "still", "even",
      "just",  "really", "i'd",     "not",     "never", "didn't", "don't", "haven't",
      "got",   "went",   "made",    "took",    "had",   "did",    "been",  "let",
  };
  return kSet;
}

// ---- Tokens
// ---------------------------------------------------------------------------------------

struct Token {
  Span span;
  std::string lower;       // ASCII-lowercased, ’ written as '
  bool word = true;        // false: one punctuation character
  bool cap = false;        // starts with an ASCII capital
  bool time = false;       // inside a time mention
  bool name_like = false;  // capitalised (or has a hyphen / digit after a capital): may be a name
};

bool IsAsciiAlnum(char32_t cp) {
  return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9');
}

bool IsWordChar(char32_t cp) { return !IsSpaceChar(cp) && !IsPunctChar(cp) && cp >= 0x20; }

// Characters that join two word characters into one token ("don't", "City-A", "node.js").
bool IsJoiner(char32_t cp) {
  return cp == U'\'' || cp == U'\u2019' || cp == U'-' || cp == U'.' || cp == U'/' || cp == U'&' ||
         cp == U'_' || cp == U'@';
}

// A title written before a name ("Mr", "Dr"), lower case.
bool IsTitle(std::string_view lower) {
  return lower == "mr" || lower == "mrs" || lower == "ms" || lower == "mx" || lower == "dr" || lower == "prof";
}

std::vector<Token> Tokenize(std::string_view text, Span sentence, const std::vector<Span>& times) {
  std::vector<Token> tokens;
  size_t pos = sentence.begin;
  size_t word_begin = std::string_view::npos;
  auto close_word = [&](size_t end) {
    if (word_begin == std::string_view::npos) return;
    Token token;
    token.span = {word_begin, end};
    token.lower = LowerAscii(SpanText(text, token.span));
    char first = text[word_begin];
    token.cap = first >= 'A' && first <= 'Z';
    tokens.push_back(std::move(token));
    word_begin = std::string_view::npos;
  };
  while (pos < sentence.end) {
    char32_t cp = 0;
    size_t len = 0;
    if (!DecodeUtf8(text, pos, &cp, &len)) {
      close_word(pos);
      pos += len;
      continue;
    }
    bool in_word = word_begin != std::string_view::npos;
    // A title's period is part of it: "Mr. Okafor", "Dr. Patel" are one name.
    if (in_word && cp == U'.' && IsTitle(LowerAscii(text.substr(word_begin, pos - word_begin))) &&
        pos + 2 < sentence.end && text[pos + 1] == ' ' && text[pos + 2] >= 'A' && text[pos + 2] <= 'Z') {
      pos += len;
      continue;
    }
    if (in_word && IsJoiner(cp)) {
      // A joiner stays inside the word only when a word character follows.
      char32_t next = 0;
      size_t next_len = 0;
      if (pos + len < sentence.end && DecodeUtf8(text, pos + len, &next, &next_len) &&
          (cp == U'.' ? IsAsciiAlnum(next) : IsWordChar(next) && !IsJoiner(next))) {
        pos += len;
        continue;
      }
    }
    if (in_word && (cp == U'+' || cp == U'#')) {  // "C++", "C#"
      pos += len;
      continue;
    }
    if (IsWordChar(cp) && !IsJoiner(cp) && cp != U'+' && cp != U'#') {
      if (!in_word) word_begin = pos;
      pos += len;
      continue;
    }
    close_word(pos);
    if (!IsSpaceChar(cp)) {
      Token token;
      token.span = {pos, pos + len};
      token.lower = std::string(SpanText(text, token.span));
      token.word = false;
      tokens.push_back(std::move(token));
    }
    pos += len;
  }
  close_word(sentence.end);
  // Time mentions and name shapes.
  size_t t = 0;
  for (Token& token : tokens) {
    while (t < times.size() && times[t].end <= token.span.begin) ++t;
    token.time = t < times.size() && times[t].Overlaps(token.span);
    if (token.word && token.cap && !In(NotNames(), token.lower)) token.name_like = true;
  }
  return tokens;
}

bool IsVowel(char c) { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u'; }

bool IsConsonant(char c) { return c >= 'a' && c <= 'z' && !IsVowel(c); }

// The stem of a regular -ing / -ed form with its silent "e" restored where English spelling drops
// it ("mak" → "make", "danc" → "dance", "creat" → "create"); other stems unchanged.
std::string RestoreE(std::string stem) {
  size_t n = stem.size();
  if (n < 2) return stem;
  char last = stem[n - 1];
  char prev = stem[n - 2];
  // Doubled final consonant: "runn" → "run" (but "call", "pass", "buzz", "stuff" keep it).
  if (last == prev && IsConsonant(last) && last != 'l' && last != 's' && last != 'z' &&
      last != 'f') {
    stem.pop_back();
    return stem;
  }
  bool add_e = false;
  if (n == 2 && stem == "us") add_e = true;
  if (last == 'v' || last == 'c' || last == 'z' || last == 'u') add_e = true;
  if ((last == 'g' && (prev == 'r' || prev == 'd')) ||  // charg, judg
      (last == 'l' && IsConsonant(prev) && prev != 'l' && prev != 'r' && prev != 'w')) {  // cycl
    add_e = true;
  }
  if (n >= 3) {
    char third = stem[n - 3];
    if (last == 't' && (prev == 'a' || prev == 'u') && IsConsonant(third) && n >= 5) add_e = true;
    if (last == 'r' && (prev == 'a' || prev == 'i' || prev == 'o' || prev == 'u') &&
        IsConsonant(third)) {
      add_e = true;  // share, retire, explore, adore
    }
    if (last == 's' && (prev == 'o' || prev == 'i' || (prev == 'u' && IsVowel(third)))) {
      add_e = true;  // close, raise, cause
    }
    if (last == 'g' && prev == 'a' && IsConsonant(third) && n >= 5) add_e = true;  // manage
    if (last == 'g' && prev == 'n' && third == 'a' && n >= 5) add_e = true;        // change
    if ((last == 'd' || last == 'n') && prev == 'i' && IsConsonant(third) && n >= 5) {
      add_e = true;  // decide, combine
    }
    if (last == 'b' && prev == 'i' && n >= 5) add_e = true;  // describe
    // A short single-syllable consonant-vowel-consonant stem: mak, hik, writ, smok, tim.
    if (n <= 4 && IsConsonant(last) && last != 'w' && last != 'x' && last != 'y' && IsVowel(prev) &&
        IsConsonant(third)) {
      bool single_vowel = true;
      for (size_t k = 0; k + 2 < n; ++k) {
        if (IsVowel(stem[k])) single_vowel = false;
      }
      if (single_vowel) add_e = true;
    }
  }
  if (add_e) stem.push_back('e');
  return stem;
}

}  // namespace

std::string VerbLemma(std::string_view w) {
  static const WordMap kIng = {
      {"being", "be"},
      {"having", "have"},
      {"going", "go"},
      {"doing", "do"},
      {"seeing", "see"},
      {"lying", "lie"},
      {"dying", "die"},
      {"tying", "tie"},
      {"skiing", "ski"},
      {"visiting", "visit"},
      {"editing", "edit"},
      {"opening", "open"},
      {"listening", "listen"},
      {"traveling", "travel"},
      {"travelling", "travel"},
      {"cooking", "cook"},
      {"shooting", "shoot"},
      {"coming", "come"},
      {"becoming", "become"},
      {"fishing", "fish"},
      {"camping", "camp"},
      {"hiking", "hike"},
      {"biking", "bike"},
      {"taking", "take"},
      {"making", "make"},
      {"giving", "give"},
      {"living", "live"},
      {"loving", "love"},
      {"moving", "move"},
      {"using", "use"},
      {"writing", "write"},
      {"riding", "ride"},
      {"driving", "drive"},
      {"baking", "bake"},
      {"dancing", "dance"},
      {"skating", "skate"},
      {"hoping", "hope"},
      {"leaving", "leave"},
      {"saving", "save"},
      {"caring", "care"},
      {"sharing", "share"},
      {"creating", "create"},
      {"exploring", "explore"},
      {"practicing", "practice"},
      {"volunteering", "volunteer"},
      {"gardening", "garden"},
      {"meditating", "meditate"},
      {"celebrating", "celebrate"},
      {"changing", "change"},
      {"continuing", "continue"},
      {"debating", "debate"},
      {"losing", "lose"},
      {"choosing", "choose"},
      {"chasing", "chase"},
      {"purchasing", "purchase"},
      {"promising", "promise"},
      {"advertising", "advertise"},
      {"exercising", "exercise"},
      {"focusing", "focus"},
      {"crossing", "cross"},
      {"kissing", "kiss"},
      {"missing", "miss"},
      {"dressing", "dress"},
      {"guessing", "guess"},
      {"blessing", "bless"},
      {"adding", "add"},
      {"offering", "offer"},
      {"entering", "enter"},
      {"considering", "consider"},
      {"wondering", "wonder"},
      {"answering", "answer"},
      {"covering", "cover"},
      {"discovering", "discover"},
      {"ordering", "order"},
      {"delivering", "deliver"},
      {"happening", "happen"},
      {"developing", "develop"},
  };
  static const WordMap kEd = {
      {"used", "use"},
      {"focused", "focus"},
      {"visited", "visit"},
      {"edited", "edit"},
      {"opened", "open"},
      {"listened", "listen"},
      {"traveled", "travel"},
      {"travelled", "travel"},
      {"exercised", "exercise"},
      {"purchased", "purchase"},
      {"promised", "promise"},
      {"practiced", "practice"},
      {"gardened", "garden"},
      {"volunteered", "volunteer"},
      {"advertised", "advertise"},
      {"chased", "chase"},
      {"crossed", "cross"},
      {"missed", "miss"},
      {"dressed", "dress"},
      {"guessed", "guess"},
      {"added", "add"},
      {"offered", "offer"},
      {"entered", "enter"},
      {"remembered", "remember"},
      {"considered", "consider"},
      {"wondered", "wonder"},
      {"answered", "answer"},
      {"covered", "cover"},
      {"discovered", "discover"},
      {"ordered", "order"},
      {"delivered", "deliver"},
      {"happened", "happen"},
      {"benefited", "benefit"},
      {"developed", "develop"},
  };
  if (auto it = IrregularPast().find(w); it != IrregularPast().end()) {
    return std::string(it->second);
  }
  if (auto it = kIng.find(w); it != kIng.end()) return std::string(it->second);
  if (In(NonVerbsInIng(), w)) return std::string(w);
  if (auto it = kEd.find(w); it != kEd.end()) return std::string(it->second);
  size_t n = w.size();
  if (n >= 5 && w.substr(n - 3) == "ing") return RestoreE(std::string(w.substr(0, n - 3)));
  if (n >= 4 && w.substr(n - 3) == "ied") return std::string(w.substr(0, n - 3)) + "y";
  if (n >= 6 && w.substr(n - 3) == "eed") return std::string(w.substr(0, n - 1));  // agreed
  if (n >= 4 && w.substr(n - 2) == "ed" && w.substr(n - 3) != "eed") {
    return RestoreE(std::string(w.substr(0, n - 2)));
  }
  return std::string(w);
}

std::string ThirdPersonSingular(std::string_view base) {
  if (base == "have") return "has";
  if (base == "be") return "is";
  if (base == "do") return "does";
  if (base == "go") return "goes";
  std::string out(base);
  size_t n = out.size();
  if (n == 0) return out;
  char last = out[n - 1];
  if (last == 'y' && n >= 2 && IsConsonant(out[n - 2])) {
    out.pop_back();
    return out + "ies";
  }
  if (last == 's' || last == 'x' || last == 'z' || last == 'o' ||
      (n >= 2 && (out.substr(n - 2) == "sh" || out.substr(n - 2) == "ch"))) {
    return out + "es";
  }
  return out + "s";
}

std::string UsesSlot(std::string_view value) {
  const Lexicon& lex = Lexicon::Get();
  const std::string lower = LowerAscii(value);
  std::vector<PhraseHit> hits = lex.FindValues(lower);
  if (hits.empty() || hits.front().begin != 0) return "";
  const AttributeRef* ref = lex.Value(hits.front().phrase);
  return ref != nullptr && ref->attribute == "uses" ? ref->slot : "";
}

namespace {

// ---- The clause reader ------------------------------------------------------------------------

enum class Form { kBase, kThird, kPast, kIng };

// The auxiliary chain between a subject and its main verb.
struct Aux {
  bool be = false;            // am / is / are / was / were
  bool have = false;          // have / has / had + participle
  bool been = false;          // have been
  bool past = false;          // was / were / did / had
  bool will = false;          // will / 'll / gonna / going to / about to
  bool modal = false;         // can / could / would / should / might / may / must / 'd
  bool contracted_d = false;  // the modal is an "'d" ("I'd love to", "I'd gone")
  bool do_support = false;    // do / does / did before the verb
  bool used_to = false;       // used to
  bool negated = false;
  bool habitual = false;
  bool temporary = false;
};

struct Subject {
  SubjectKind kind = SubjectKind::kSpeaker;
  Span span;
  bool third = false;       // a third person: "-s" forms are verbs, plain forms too when plural
  bool weak = false;        // a lone capitalised word opening the sentence: strong predicates only
  unsigned qualifiers = 0;  // kBitReported
  Span relation;            // the relation word of "my sister", when the subject is one
  bool plural = false;      // "my kids", "my parents": plain present forms agree
};

enum class SubjectResult { kFound, kNone, kBlocked };

const WordSet& Adverbs() {
  static const WordSet kSet = {
      "just",        "really",  "also",    "recently",   "finally",    "actually",   "still",
      "even",        "already", "totally", "definitely", "absolutely", "mainly",     "mostly",
      "currently",   "now",     "lately",  "truly",      "kinda",      "sorta",      "literally",
      "seriously",   "first",   "ever",    "generally",  "normally",   "regularly",  "occasionally",
      "rarely",      "all",     "both",    "certainly",  "probably",   "maybe",      "honestly",
      "officially",  "happily", "proudly", "gradually",  "slowly",     "quickly",    "secretly",
      "sometimes",   "usually", "always",  "often",      "frequently", "typically",  "constantly",
      "temporarily", "super",   "def",     "originally", "initially",  "eventually", "personally",
      "once",        "newly",   "almost",  "nearly",     "basically",  "simply",     "only",
      "then",        "too",     "soon",    "again",      "somehow",    "luckily",    "finally",
      "both",        "each",    "totally", "genuinely",  "absolutely", "barely",     "hardly",
      "sometime",    "kind",    "sort",    "pretty",     "mostly",     "currently",  "together",
      "last",        "later",   "earlier", "ever",       "no",         "anymore",
  };
  return kSet;
}

const WordSet& HabitualAdverbs() {
  static const WordSet kSet = {"always",   "usually",   "often",      "sometimes",   "generally",
                               "normally", "regularly", "frequently", "typically",   "constantly",
                               "daily",    "weekly",    "nightly",    "occasionally"};
  return kSet;
}

const WordSet& TimeUnits() {
  static const WordSet kSet = {
      "night",    "week",      "weekend",    "month",     "year",     "time",      "morning",
      "evening",  "afternoon", "summer",     "winter",    "spring",   "fall",      "autumn",
      "monday",   "tuesday",   "wednesday",  "thursday",  "friday",   "saturday",  "sunday",
      "mon",      "tue",       "tues",       "wed",       "thu",      "thur",      "thurs",
      "fri",      "sat",       "sun",        "day",       "semester", "season",    "other",
      "weekends", "mornings",  "evenings",   "nights",    "days",     "weeks",     "months",
      "years",    "while",     "moment",     "past",      "first",    "second",    "decade",
      "mondays",  "tuesdays",  "wednesdays", "thursdays", "fridays",  "saturdays", "sundays",
  };
  return kSet;
}

// Words after "for" that make it a duration or a "for now", not part of the value.
const WordSet& DurationWords() {
  static const WordSet kSet = {"now",   "a",     "the",    "years",   "months", "weeks",   "days",
                               "hours", "ages",  "so",     "two",     "three",  "four",    "five",
                               "six",   "ten",   "many",   "several", "some",   "decades", "long",
                               "over",  "about", "almost", "nearly",  "most",   "now."};
  return kSet;
}

const WordSet& Pronouns() {
  static const WordSet kSet = {"i",     "we",   "it",      "he",     "she",   "they",  "you",
                               "i'm",   "it's", "we're",   "that's", "there", "i've",  "we've",
                               "she's", "he's", "they're", "i'd",    "i'll",  "we'll", "me",
                               "us",    "him",  "her",     "them",   "this",  "that",  "u"};
  return kSet;
}

const WordMap& SpeakerSubjects();

class EnglishReader {
 public:
  EnglishReader(std::string_view text, const Sentence& sentence, const std::vector<Span>& times,
                std::vector<RawClaim>* out)
      : text_(text), times_(times), out_(out), toks_(Tokenize(text, sentence.span, times)) {}

  void Run();

 private:
  // ---- Token access ----
  size_t size() const { return toks_.size(); }
  const Token& Tok(size_t i) const {
    static const Token kEnd = [] {
      Token t;
      t.word = false;
      return t;
    }();
    return i < toks_.size() ? toks_[i] : kEnd;
  }
  bool Is(size_t i, std::string_view w) const { return Tok(i).word && Tok(i).lower == w; }
  bool IsBoundaryPunct(size_t i) const {
    const Token& t = Tok(i);
    if (t.word) return false;
    std::string_view p = t.lower;
    return !(p == "\"" || p == "'" || p == "\u201C" || p == "\u201D" || p == "\u2018" ||
             p == "\u2019" || p == "&" || p == "$" || p == "%" || p == "*");
  }
  Form FormOf(size_t i, bool third) const;
  bool IsPastVerb(size_t i) const;  // a plain past tense (not an -ed adjective)

  // ---- Clause pieces ----
  size_t SkipLeaders(size_t i, bool* hypothetical) const;
  size_t TrimDangling(size_t b, size_t e) const;
  SubjectResult ReadSubject(size_t i, Subject* subject, Aux* aux, size_t* verb);
  size_t ReadAux(size_t i, Aux* aux) const;
  bool ReadClause(size_t start, bool continuation, bool allow_ing, size_t* consumed);
  bool Dispatch(size_t v, const Subject& subject, const Aux& aux, bool subjectless,
                size_t* consumed);
  bool Copula(size_t v, const Subject& subject, const Aux& aux, size_t* consumed);
  bool ReadMyNounIs(size_t i, size_t* consumed);
  void ReadFavoriteTails();
  bool IsBaseVerbAt(size_t i) const;
  bool GerundSubject(size_t v) const;
  bool EmitWithin(const Subject& subject, std::string_view predicate, size_t begin, size_t end,
                  unsigned qualifiers, double confidence, size_t* consumed);

  // ---- Values and output ----
  size_t CutValue(size_t begin) const;
  size_t ClauseEnd(size_t i) const;
  unsigned ClauseQualifiers(size_t from, size_t to) const;
  bool Emit(const Subject& subject, std::string_view predicate, std::string slot, size_t begin,
            unsigned qualifiers, double confidence, bool strip_article, size_t clause_begin,
            size_t* consumed, size_t end = std::string_view::npos);
  void EmitRelation(Span relation_word, Span name, size_t clause_begin);
  // has_relation of the speaker with `slot`, the value `name` ("manager", "Raj Patel").
  void EmitRelationSlot(std::string slot, Span name, size_t clause_begin, unsigned qualifiers);
  // Where a name of one to three capitalised words from `b` ends when nothing but "now",
  // "anymore", "again", "instead", punctuation or another clause ("and he …") follows it, and none of its words is an acronym
  // ("HR") or describes a person (markers.tsv `describes`: "Indian", "Gen Z") ("Olivia Chen, she's great"); `b` when there is none.
  size_t NameThatEndsClause(size_t b) const;
  // True when `word` (lower case) is a role of markers.tsv `role_relation` ("manager", "gp").
  static bool IsRoleRelation(std::string_view word);

  std::string_view text_;
  const std::vector<Span>& times_;
  std::vector<RawClaim>* out_;
  std::vector<Token> toks_;
  size_t clause_begin_ = 0;     // first token of the clause being read
  size_t first_word_ = 0;       // first token of the sentence after leading discourse words
  Subject last_;                // the subject of the last clause (subject-less clauses inherit it)
  bool last_valid_ = true;      // false after a clause about someone else ("It was ...")
  bool keeps_speaker_ = false;  // set by ReadSubject for "my eyes ...": still the speaker's
  mutable bool subordinate_ = false;  // SkipLeaders passed "when", "while", "after" ...
  bool keep_times_ = false;  // the value is a date (birthdays): time expressions stay in it
};

Form EnglishReader::FormOf(size_t i, bool third) const {
  const Token& t = Tok(i);
  std::string_view w = t.lower;
  static const WordSet kAmbiguous = {"read", "put",  "cut",    "set",  "hit", "quit", "let",
                                     "hurt", "cost", "spread", "shut", "bet", "fit",  "split"};
  if (IrregularPast().count(w) > 0) return Form::kPast;
  if (In(kAmbiguous, w)) return Form::kBase;
  size_t n = w.size();
  if (n >= 5 && w.substr(n - 3) == "ing" && !In(NonVerbsInIng(), w)) return Form::kIng;
  static const WordSet kShortPast = {"used", "owed", "aged", "axed", "iced", "dyed",
                                     "eyed", "sued", "hoed", "toed", "awed"};
  if (n >= 4 && w.substr(n - 2) == "ed" && !(n <= 5 && w.substr(n - 3) == "eed") &&
      (n >= 5 || In(kShortPast, w))) {
    return Form::kPast;
  }
  if (third && n >= 3 && w.back() == 's' && w.substr(n - 2) != "ss" && w.substr(n - 2) != "us" &&
      w.substr(n - 2) != "is" && w.find('\'') == std::string_view::npos) {
    return Form::kThird;
  }
  return Form::kBase;
}

bool EnglishReader::IsPastVerb(size_t i) const {
  const Token& t = Tok(i);
  if (!t.word || In(AdjectivesInEd(), t.lower)) return false;
  if (t.lower == "was" || t.lower == "were" || t.lower == "been") return false;
  return FormOf(i, false) == Form::kPast;
}

size_t EnglishReader::ClauseEnd(size_t i) const {
  static const WordSet kEnds = {"but",      "because", "cause", "'cause",  "cuz", "so",
                                "although", "though",  "while", "whereas", "and"};
  for (size_t k = i; k < size(); ++k) {
    if (IsBoundaryPunct(k)) return k;
    if (k > i && Tok(k).word && In(kEnds, Tok(k).lower)) {
      if (Tok(k).lower != "and" || In(ClauseOpeners(), Tok(k + 1).lower) || IsPastVerb(k + 1)) {
        return k;
      }
    }
  }
  return size();
}

size_t EnglishReader::CutValue(size_t begin) const {
  static const WordSet kQuotes = {"\"",     "'", "\u201C", "\u201D", "\u2018",
                                  "\u2019", "&", "$",      "%",      "*"};
  static const WordSet kAgoLead = {"a",      "few",    "couple", "of",      "several", "some",
                                   "many",   "two",    "three",  "four",    "five",    "six",
                                   "seven",  "eight",  "nine",   "ten",     "an",      "about",
                                   "around", "almost", "nearly", "roughly", "over",    "like",
                                   "maybe",  "just",   "only",   "half",    "one",     "twenty"};
  static const WordSet kUnits = {"day",    "days",    "week",  "weeks",  "month",
                                 "months", "year",    "years", "hour",   "hours",
                                 "minute", "minutes", "while", "decade", "decades"};
  size_t e = begin;
  for (; e < size(); ++e) {
    const Token& t = Tok(e);
    if (!t.word) {
      if (In(kQuotes, t.lower)) continue;
      break;
    }
    if (t.time) break;
    if (e - begin >= 14) break;
    if (e == begin) continue;
    std::string_view w = t.lower;
    std::string_view next = Tok(e + 1).lower;
    if (In(ValueCutWords(), w) || SpeakerSubjects().count(w) > 0) break;
    if ((w == "and" || w == "or") &&
        (In(ClauseOpeners(), next) || IsPastVerb(e + 1) || Tok(e + 1).time)) {
      break;
    }
    if ((w == "so" || w == "like" || w == "as" || w == "that") &&
        (In(Pronouns(), next) || next == "my" || next == "our" ||
         (w == "as" && next != "a" && next != "an"))) {
      break;
    }
    if (w == "for" && In(DurationWords(), next)) {
      // "for a while", "for now", "for two years" — but not "for a friend".
      if (next != "a" && next != "the") break;
      std::string_view after = Tok(e + 2).lower;
      if (after == "while" || after == "bit" || after == "moment" || after == "time" ||
          after == "few" || after == "couple" || after == "long") {
        break;
      }
    }
    if (w == "at" && next == "the" && Tok(e + 2).lower == "moment") break;
    if ((w == "in" && next == "the" && Tok(e + 2).lower == "meantime") || w == "meanwhile") break;
    if ((w == "last" || w == "this" || w == "next" || w == "the" || w == "every" || w == "each" ||
         w == "on" || w == "at") &&
        In(TimeUnits(), next) && next != "past" && next != "first" && next != "second" &&
        next != "time" && next != "other") {
      break;
    }
    if (w == "the" && next == "other" && Tok(e + 2).lower == "day") break;
    if ((w == "these" || w == "those") && next == "days") break;
    if (w == "right" && next == "now") break;
    if (w == "in" && next == "the" &&
        (Tok(e + 2).lower == "morning" || Tok(e + 2).lower == "evening" ||
         Tok(e + 2).lower == "afternoon" || Tok(e + 2).lower == "past")) {
      break;
    }
    // "a few weeks ago", "two years ago".
    if (In(kAgoLead, w) || (!w.empty() && w[0] >= '0' && w[0] <= '9')) {
      bool ago = false;
      for (size_t k = e + 1; k < e + 5 && k < size(); ++k) {
        if (Tok(k).lower == "ago") {
          ago = true;
          break;
        }
        if (!In(kAgoLead, Tok(k).lower) && !In(kUnits, Tok(k).lower)) break;
      }
      if (ago) break;
    }
  }
  return e;
}

// [b, e) without trailing prepositions, articles and conjunctions ("putting my feelings on the
// canvas without" → "… on the canvas").
size_t EnglishReader::TrimDangling(size_t b, size_t e) const {
  static const WordSet kDangling = {
      "without", "with", "of",   "for",  "to",    "in",   "on",   "at",     "from",   "by",
      "about",   "like", "into", "than", "as",    "a",    "an",   "the",    "my",     "our",
      "your",    "and",  "or",   "but",  "some",  "very", "so",   "really", "just",   "too",
      "their",   "his",  "her",  "this", "these", "more", "most", "such",   "pretty", "quite",
      "even",    "i",    "we",   "that", "which", "who",  "is",   "was",    "are"};
  while (e > b + 1 && (In(kDangling, Tok(e - 1).lower) || !Tok(e - 1).word)) --e;
  return e;
}

unsigned EnglishReader::ClauseQualifiers(size_t from, size_t to) const {
  static const WordSet kHabitUnits = {
      "day",       "morning",  "night",  "week",   "weekend", "month",   "year",      "evening",
      "afternoon", "time",     "summer", "winter", "monday",  "tuesday", "wednesday", "thursday",
      "friday",    "saturday", "sunday", "other",  "single",  "few",     "couple"};
  unsigned bits = 0;
  for (size_t k = from; k < to && k < size(); ++k) {
    std::string_view w = Tok(k).lower;
    std::string_view next = Tok(k + 1).lower;
    // (markers.tsv `temporary` says the same for the fact frame.)
    if (w == "temporarily" || w == "meanwhile" || (w == "for" && next == "now") ||
        (w == "in" && next == "the" && Tok(k + 2).lower == "meantime") ||
        (w == "for" && next == "a" && Tok(k + 2).lower == "while") ||
        (w == "for" && next == "the" && Tok(k + 2).lower == "time" &&
         Tok(k + 3).lower == "being")) {
      bits |= kBitTemporary;
    }
    if (In(HabitualAdverbs(), w) || ((w == "every" || w == "each") && In(kHabitUnits, next)) ||
        (w == "on" && (next == "weekends" || next == "sundays" || next == "saturdays" ||
                       next == "mondays" || next == "fridays")) ||
        ((w == "once" || w == "twice" || w == "times") && (next == "a" || next == "per")) ||
        (w == "all" && next == "the" && Tok(k + 2).lower == "time")) {
      bits |= kBitHabitual;
    }
  }
  return bits;
}

bool EnglishReader::Emit(const Subject& subject, std::string_view predicate, std::string slot,
                         size_t begin, unsigned qualifiers, double confidence, bool strip_article,
                         size_t clause_begin, size_t* consumed, size_t end) {
  static const WordSet kArticles = {"a", "an", "the", "some"};
  if (begin >= size() || !Tok(begin).word) {
    // Values may open with a quote: 'I watched "Little Women"'.
    if (begin >= size() || (Tok(begin).lower != "\"" && Tok(begin).lower != "\u201C")) {
      return false;
    }
  }
  while (begin < size() && Tok(begin).time && end == std::string_view::npos) ++begin;
  size_t e = end == std::string_view::npos ? CutValue(begin) : std::min(end, size());
  if (e <= begin) return false;
  static const WordSet kBadStarts = {"and",   "or",   "but",   "so",      "has",  "have", "had",
                                     "is",    "was",  "are",   "were",    "been", "be",   "will",
                                     "would", "can",  "could", "should",  "do",   "does", "did",
                                     "'s",    "than", "of",    "because", "if",   "then", "gonna"};
  size_t b = begin;
  if (strip_article && e - b > 1 && In(kArticles, Tok(b).lower)) ++b;
  e = TrimDangling(b, e);
  static const WordSet kBadVerbValueStarts = {"and", "or",      "but", "so", "than",
                                              "of",  "because", "if",  "'s"};
  if (In(strip_article ? kBadStarts : kBadVerbValueStarts, Tok(b).lower)) return false;
  bool all_empty = true;
  for (size_t k = b; k < e; ++k) {
    if (Tok(k).word && !In(EmptyValues(), Tok(k).lower)) all_empty = false;
  }
  if (all_empty) return false;
  Span value = TrimSpan(text_, {Tok(b).span.begin, Tok(e - 1).span.end});
  if (!keep_times_) value = TrimSpan(text_, CutTimes(text_, value, times_));
  if (value.empty()) return false;
  RawClaim claim;
  claim.subject_kind = subject.kind;
  claim.subject = subject.span;
  claim.predicate = std::string(predicate);
  claim.slot = std::move(slot);
  claim.value = value;
  size_t clause_end = std::max(e, ClauseEnd(begin));
  claim.qualifiers = qualifiers | subject.qualifiers | ClauseQualifiers(clause_begin, clause_end);
  static const WordSet kHabitualPredicates = {"habit", "went_to", "attended", "joined",
                                              "did",   "doing",   "uses",     "plans_to"};
  if (!In(kHabitualPredicates, predicate) && !(qualifiers & kBitHabitual)) {
    claim.qualifiers &= ~kBitHabitual;
  }
  claim.clause = {Tok(clause_begin).span.begin, Tok(clause_end - 1).span.end};
  claim.confidence =
      confidence - ((subject.qualifiers & kBitReported) ? 0.1 : 0.0) - (subject.weak ? 0.05 : 0.0);
  out_->push_back(std::move(claim));
  if (consumed != nullptr) *consumed = std::max(*consumed, e);
  return true;
}

void EnglishReader::EmitRelation(Span relation_word, Span name, size_t clause_begin) {
  EmitRelationSlot(std::string(SpanText(text_, relation_word)), name, clause_begin, 0);
}

void EnglishReader::EmitRelationSlot(std::string slot, Span name, size_t clause_begin, unsigned qualifiers) {
  RawClaim claim;
  claim.predicate = "has_relation";
  claim.slot = std::move(slot);
  claim.value = name;
  claim.qualifiers = qualifiers;
  claim.clause = {Tok(clause_begin).span.begin, name.end};
  claim.confidence = 0.85;
  out_->push_back(std::move(claim));
}

bool EnglishReader::IsRoleRelation(std::string_view word) {
  const std::vector<std::string>& roles = engram::extraction::Lexicon::Get().Markers("role_relation");
  return std::find(roles.begin(), roles.end(), word) != roles.end();
}

size_t EnglishReader::NameThatEndsClause(size_t b) const {
  const std::vector<std::string>& describes = Lexicon::Get().Markers("describes");
  size_t e = b;
  while (e < b + 3 && e < size() && Tok(e).name_like && Tok(e).word) {
    const std::string_view w = Tok(e).lower;
    const std::string_view written = SpanText(text_, Tok(e).span);
    const bool acronym = written.size() > 1 && std::all_of(written.begin(), written.end(), [](char c) {
                           return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
                         });
    if (acronym || std::find(describes.begin(), describes.end(), w) != describes.end()) return b;  // "HR", "Indian"
    ++e;
  }
  if (e == b) return b;
  static const WordSet kAfter = {"now", "anymore", "again", "instead"};
  static const WordSet kJoins = {"and", "but", "so"};
  static const WordSet kSubjects = {"he", "she", "they", "i", "we", "he's", "she's", "they're", "i'm", "we're"};
  if (e + 1 < size() && In(kJoins, Tok(e).lower) && In(kSubjects, Tok(e + 1).lower)) {
    return e;  // "our new manager is Luis and he actually respects calendars": another clause
  }
  if (e < size() && Tok(e).word && !In(kAfter, Tok(e).lower)) {
    return b;  // "my boss is French Canadian and loud", "I report to Dana on Mondays", "… tomorrow"
  }
  return e;
}

// Skips discourse words, interjections, addressed names and time expressions at a clause start:
// "Yeah, honestly, last week I ...", "Hey Nate, I ...", "I think that we ...".
size_t EnglishReader::SkipLeaders(size_t i, bool* hypothetical) const {
  static const WordSet kSubordinators = {"when",     "while",   "after", "before",   "since",
                                         "until",    "once",    "as",    "whenever", "though",
                                         "although", "because", "cause", "'cause",   "cuz"};
  *hypothetical = false;
  subordinate_ = false;
  size_t k = i;
  while (k < size()) {
    const Token& t = Tok(k);
    if (!t.word) {
      if (t.lower == "," || t.lower == "\"" || t.lower == "\u201C" || t.lower == "-" ||
          t.lower == "(" || t.lower == ":") {
        ++k;
        continue;
      }
      break;
    }
    if (t.time) {
      ++k;
      continue;
    }
    std::string_view w = t.lower;
    if (In(HypotheticalOpeners(), w)) {
      *hypothetical = true;
      return k;
    }
    if (In(Leaders(), w)) {
      if (In(kSubordinators, w)) subordinate_ = true;
      ++k;
      continue;
    }
    // "last Fri", "this past weekend", "the other day", "a few days ago" (not time mentions).
    if ((w == "last" || w == "this" || w == "next") && In(TimeUnits(), Tok(k + 1).lower)) {
      k += 2;
      continue;
    }
    if (w == "the" && Tok(k + 1).lower == "other" && Tok(k + 2).lower == "day") {
      k += 3;
      continue;
    }
    if ((w == "a" || w == "few" || w == "couple") && Tok(k + 1).lower != "lot") {
      size_t j = k;
      while (j < k + 5 && j < size() && Tok(j).lower != "ago") ++j;
      if (Tok(j).lower == "ago") {
        k = j + 1;
        continue;
      }
    }
    if (w == "by" && Tok(k + 1).lower == "the" && Tok(k + 2).lower == "way") {
      k += 3;
      continue;
    }
    if ((w == "in" || w == "of") && (Tok(k + 1).lower == "fact" || Tok(k + 1).lower == "course")) {
      k += 2;
      continue;
    }
    if (w == "to" && Tok(k + 1).lower == "be" && Tok(k + 2).lower == "honest") {
      k += 3;
      continue;
    }
    if (w == "you" && Tok(k + 1).lower == "know" && !Tok(k + 2).word) {
      k += 2;
      continue;
    }
    if (w == "guess" && Tok(k + 1).lower == "what") {
      k += 2;
      continue;
    }
    // An addressed name: "Hey Nate, I ..." (the name is followed by a comma or "!").
    if (t.name_like && !Tok(k + 1).word && Tok(k + 1).lower == ",") {
      k += 2;
      continue;
    }
    // "I think (that) ...", "I guess ...", "I feel like ...", "I hope ..." (not "I hope to").
    if ((w == "i" || w == "we") && In(HedgeVerbs(), Tok(k + 1).lower)) {
      std::string_view hedge = Tok(k + 1).lower;
      size_t j = k + 2;
      if (hedge == "feel" && Tok(j).lower == "like") ++j;
      if (hedge == "told" || hedge == "remember" || hedge == "forgot") {
        // "I told you I ...": skip the addressee.
        if (Tok(j).lower == "you" || Tok(j).lower == "him" || Tok(j).lower == "her") ++j;
      }
      if (Tok(j).lower == "that") ++j;
      if (Tok(j).word && (In(Pronouns(), Tok(j).lower) || Tok(j).lower == "my")) {
        k = j;
        continue;
      }
    }
    if ((w == "i" || w == "we") && (Tok(k + 1).lower == "wish" || Tok(k + 1).lower == "wished")) {
      *hypothetical = true;
      return k;
    }
    if ((w == "i" || w == "we") && Tok(k + 1).lower == "hope" && Tok(k + 2).lower != "to") {
      k += 2;
      continue;
    }
    break;
  }
  return k;
}

// Speaker subjects and the auxiliary their contraction carries.
const WordMap& SpeakerSubjects() {
  static const WordMap kMap = {{"i", ""},       {"we", ""},        {"i'm", "be"},
                               {"im", "be"},    {"we're", "be"},   {"i've", "have"},
                               {"ive", "have"}, {"we've", "have"}, {"i'd", "d"},
                               {"we'd", "d"},   {"i'll", "will"},  {"we'll", "will"}};
  return kMap;
}

// Third-person pronouns after a reporting verb ("my friend said he ...").
const WordMap& ReportedPronouns() {
  static const WordMap kMap = {{"he", ""},        {"she", ""},        {"they", ""},
                               {"he's", "be"},    {"she's", "be"},    {"they're", "be"},
                               {"he'd", "d"},     {"she'd", "d"},     {"they'd", "d"},
                               {"he'll", "will"}, {"she'll", "will"}, {"they'll", "will"},
                               {"he've", "have"}, {"they've", "have"}};
  return kMap;
}

void ApplyContraction(std::string_view kind, Aux* aux) {
  if (kind == "be") aux->be = true;
  if (kind == "have") aux->have = true;
  if (kind == "will") aux->will = true;
  if (kind == "d") aux->modal = aux->contracted_d = true;
}

bool HasHyphenOrDigit(std::string_view word) {
  return std::any_of(word.begin(), word.end(),
                     [](char c) { return c == '-' || (c >= '0' && c <= '9'); });
}

SubjectResult EnglishReader::ReadSubject(size_t i, Subject* subject, Aux* aux, size_t* verb) {
  static const WordSet kBlocked = {
      "he",      "she",     "they",       "it",        "you",     "this",     "that",    "there",
      "these",   "those",   "he's",       "she's",     "they're", "it's",     "you're",  "that's",
      "there's", "here",    "everyone",   "everybody", "nobody",  "someone",  "people",  "u",
      "ya",      "y'all",   "you've",     "you'll",    "you'd",   "they've",  "they'll", "it'll",
      "what",    "who",     "which",      "your",      "his",     "her",      "their",   "its",
      "one",     "nothing", "everything", "something", "anyone",  "anything", "both",    "all",
      "he'd",    "she'd",   "they'd",     "it'd",      "let's",   "lets",     "here's",  "what's"};
  const Token& t = Tok(i);
  *subject = Subject{};
  if (!t.word) return SubjectResult::kNone;
  std::string_view w = t.lower;
  if (auto it = SpeakerSubjects().find(w); it != SpeakerSubjects().end()) {
    ApplyContraction(it->second, aux);
    *verb = i + 1;
    return SubjectResult::kFound;
  }
  // "my wife and I", "Tom and I", "the kids and I", "me and my family".
  if (w == "me" || w == "my" || w == "our" || w == "the" || t.name_like) {
    for (size_t k = i + 1; k < i + 6 && k < size() && Tok(k).word; ++k) {
      if (Tok(k).lower != "and") continue;
      auto it = SpeakerSubjects().find(Tok(k + 1).lower);
      if (it != SpeakerSubjects().end()) {
        ApplyContraction(it->second, aux);
        *verb = k + 2;
        return SubjectResult::kFound;
      }
      if (w == "me") {
        size_t j = k + 1;
        if (Tok(j).lower == "my" || Tok(j).lower == "our" || Tok(j).lower == "the") ++j;
        while (j < k + 4 && In(RelationAdjectives(), Tok(j).lower) &&
               !In(RelationWords(), Tok(j).lower)) {
          ++j;
        }
        if (In(RelationWords(), Tok(j).lower) || Tok(j).name_like) {
          *verb = j + 1;
          return SubjectResult::kFound;
        }
      }
      break;
    }
  }
  if (w == "my" || w == "our") {
    size_t j = i + 1;
    while (j < i + 4 && In(RelationAdjectives(), Tok(j).lower) &&
           (In(RelationAdjectives(), Tok(j + 1).lower) || In(RelationWords(), Tok(j + 1).lower))) {
      ++j;
    }
    if (!Tok(j).word || !In(RelationWords(), Tok(j).lower)) {
      keeps_speaker_ = true;
      return SubjectResult::kBlocked;
    }
    Span relation = Tok(j).span;
    size_t after = j + 1;
    size_t name_begin = after;
    if (Tok(name_begin).lower == "," && Tok(name_begin + 1).name_like) ++name_begin;
    if (Tok(name_begin).lower == "named" || Tok(name_begin).lower == "called") ++name_begin;
    Span name;
    if (Tok(name_begin).name_like) {
      size_t name_end = name_begin + 1;
      if (Tok(name_end).name_like) ++name_end;
      name = {Tok(name_begin).span.begin, Tok(name_end - 1).span.end};
      after = name_end;
      if (Tok(after).lower == ",") ++after;
    }
    subject->third = true;
    subject->relation = relation;
    std::string_view rel = Tok(j).lower;
    subject->plural =
        name.empty() && (rel.back() == 's' || rel == "children" || rel == "family" ||
                         rel == "fam" || rel == "team" || rel == "band" || rel == "grandchildren");
    if (!name.empty()) {
      EmitRelation(relation, name, i);
      subject->kind = SubjectKind::kNamed;
      subject->span = name;
    } else {
      subject->kind = SubjectKind::kRelative;
      subject->span = {t.span.begin, relation.end};
    }
    *verb = after;
    return SubjectResult::kFound;
  }
  bool verb_like =
      i <= first_word_ && (FormOf(i, false) == Form::kPast || FormOf(i, false) == Form::kIng);
  bool contraction =
      w.size() > 3 && (w.substr(w.size() - 3) == "n't" || w.substr(w.size() - 3) == "'ll" ||
                       w.substr(w.size() - 3) == "'ve" || w.substr(w.size() - 3) == "'re");
  static const WordSet kAuxWords = {
      "can",  "could", "would", "should", "will",  "must",  "might", "may",  "cannot", "cant",
      "dont", "didnt", "wont",  "gonna",  "wanna", "gotta", "do",    "does", "did",    "is",
      "are",  "was",   "were",  "have",   "has",   "had",   "been",  "be",   "not",    "never"};
  if (t.name_like && !verb_like && !contraction && !In(kAuxWords, w) && !In(Adverbs(), w) &&
      !In(Leaders(), w)) {
    size_t j = i + 1;
    while (j < i + 3 && Tok(j).name_like) ++j;
    subject->kind = SubjectKind::kNamed;
    subject->span = {t.span.begin, Tok(j - 1).span.end};
    subject->third = true;
    subject->weak = j == i + 1 && i <= first_word_ && !HasHyphenOrDigit(w);
    *verb = j;
    return SubjectResult::kFound;
  }
  if (In(kBlocked, w)) return SubjectResult::kBlocked;
  return SubjectResult::kNone;
}

bool EnglishReader::IsBaseVerbAt(size_t i) const {
  static const WordSet kNotVerbs = {"the",  "a",     "an",   "my",   "our",   "your",   "his",
                                    "her",  "their", "this", "that", "these", "those",  "some",
                                    "it",   "him",   "them", "me",   "us",    "you",    "one",
                                    "two",  "three", "new",  "bed",  "work",  "school", "church",
                                    "town", "class", "sleep"};
  const Token& t = Tok(i);
  if (!t.word || t.time || t.name_like || In(kNotVerbs, t.lower)) return false;
  return FormOf(i, false) == Form::kBase;
}

bool EnglishReader::GerundSubject(size_t v) const {
  static const WordSet kVerbs = {
      "is",    "was",    "are",     "were",  "must",    "can",     "could",    "would",
      "will",  "should", "might",   "makes", "made",    "helps",   "helped",   "means",
      "meant", "feels",  "seems",   "gives", "gave",    "keeps",   "kept",     "has",
      "does",  "brings", "brought", "takes", "took",    "reminds", "reminded", "sounds",
      "looks", "isn't",  "wasn't",  "'s",    "becomes", "became",  "allows",   "lets"};
  std::string_view w = Tok(v).lower;
  if (w == "being" || w == "having" || w == "seeing" || w == "knowing" || w == "hearing") {
    return true;
  }
  for (size_t k = v + 1; k < size(); ++k) {
    if (In(kVerbs, Tok(k).lower)) return true;
  }
  return false;
}

size_t EnglishReader::ReadAux(size_t i, Aux* aux) const {
  static const WordSet kBe = {"am", "is", "are", "was", "were", "be", "'m", "'re", "being"};
  static const WordSet kModal = {"can", "could", "would", "should", "might",
                                 "may", "must",  "gotta", "ought"};
  static const WordMap kNegAux = {
      {"don't", "do"},      {"dont", "do"},        {"doesn't", "do"},     {"doesnt", "do"},
      {"didn't", "did"},    {"didnt", "did"},      {"can't", "modal"},    {"cant", "modal"},
      {"cannot", "modal"},  {"couldn't", "modal"}, {"wouldn't", "modal"}, {"shouldn't", "modal"},
      {"won't", "will"},    {"wont", "will"},      {"isn't", "be"},       {"aren't", "be"},
      {"wasn't", "bepast"}, {"weren't", "bepast"}, {"ain't", "be"},       {"haven't", "have"},
      {"hasn't", "have"},   {"hadn't", "hadpast"}, {"havent", "have"},    {"mustn't", "modal"}};
  auto skip_adverbs = [&](size_t k) {
    while (k < size() &&
           (In(Adverbs(), Tok(k).lower) || Tok(k).lower == "not" || Tok(k).lower == "never")) {
      ++k;
    }
    return k;
  };
  size_t k = i;
  while (k < size()) {
    const Token& t = Tok(k);
    if (!t.word) break;
    std::string_view w = t.lower;
    std::string_view next = Tok(k + 1).lower;
    if (t.time && k > i) {
      ++k;
      continue;
    }
    if (In(kBe, w)) {
      aux->be = true;
      if (w == "was" || w == "were") aux->past = true;
      ++k;
      continue;
    }
    if (w == "been") {
      aux->been = aux->be = true;
      if (aux->contracted_d) {
        aux->have = aux->past = true;
        aux->modal = false;
      }
      ++k;
      continue;
    }
    if (w == "have" || w == "has" || w == "had" || w == "'ve") {
      size_t n2 = skip_adverbs(k + 1);
      const Token& after = Tok(n2);
      bool participle =
          after.word && (after.lower == "been" || after.lower == "got" || after.lower == "gotten" ||
                         (FormOf(n2, false) == Form::kPast && !after.name_like));
      if (!participle) break;
      aux->have = true;
      if (w == "had") aux->past = true;
      ++k;
      continue;
    }
    if (w == "do" || w == "does" || w == "did") {
      size_t n2 = skip_adverbs(k + 1);
      const Token& after = Tok(n2);
      bool support = after.word &&
                     (n2 > k + 1 ||
                      (VerbLemma(after.lower) == after.lower && FormOf(n2, false) == Form::kBase &&
                       IsBaseVerbAt(n2) && !In(EmptyValues(), after.lower)));
      if (!support) break;
      aux->do_support = true;
      if (w == "did") aux->past = true;
      ++k;
      continue;
    }
    if (auto it = kNegAux.find(w); it != kNegAux.end()) {
      aux->negated = true;
      std::string_view kind = it->second;
      if (kind == "do" || kind == "did") aux->do_support = true;
      if (kind == "did" || kind == "bepast" || kind == "hadpast") aux->past = true;
      if (kind == "modal") aux->modal = true;
      if (kind == "will") aux->will = true;
      if (kind == "be" || kind == "bepast") aux->be = true;
      if (kind == "have" || kind == "hadpast") aux->have = true;
      ++k;
      continue;
    }
    if (w == "not" || w == "never" || w == "n't") {
      aux->negated = true;
      ++k;
      continue;
    }
    if (w == "no" && next == "longer") {
      aux->negated = true;
      k += 2;
      continue;
    }
    if (w == "will" || w == "'ll" || w == "shall" || w == "gonna") {
      aux->will = true;
      ++k;
      continue;
    }
    if ((w == "going" || w == "about") && next == "to" && IsBaseVerbAt(k + 2)) {
      aux->will = true;
      aux->be = false;  // "am going to": the "am" belongs to the future
      k += 2;
      continue;
    }
    if (w == "used" && next == "to" && IsBaseVerbAt(k + 2)) {
      aux->used_to = true;
      k += 2;
      continue;
    }
    if (In(kModal, w)) {
      aux->modal = true;
      ++k;
      continue;
    }
    static const WordSet kVerbsInLy = {"fly",      "reply", "apply", "rely",  "supply",
                                       "multiply", "bully", "rally", "tally", "ally",
                                       "comply",   "imply", "belly", "jelly"};
    bool ly_adverb = w.size() > 4 && w.substr(w.size() - 2) == "ly" && !In(kVerbsInLy, w);
    if (In(Adverbs(), w) || ly_adverb) {
      if ((w == "kind" || w == "sort") && next != "of") break;
      if (In(HabitualAdverbs(), w)) aux->habitual = true;
      if (w == "temporarily") aux->temporary = true;
      k += (w == "kind" || w == "sort") ? 2 : 1;
      continue;
    }
    break;
  }
  // "I'd gone", "she'd moved": a past perfect, not a modal.
  if (aux->contracted_d && !aux->have && FormOf(k, false) == Form::kPast) {
    aux->have = aux->past = true;
    aux->modal = false;
  }
  return k;
}

bool EnglishReader::EmitWithin(const Subject& subject, std::string_view predicate, size_t begin,
                               size_t end, unsigned qualifiers, double confidence,
                               size_t* consumed) {
  if (end <= begin) return false;
  return Emit(subject, predicate, "", begin, qualifiers, confidence, false, clause_begin_, consumed,
              end);
}

// "my name is Lin", "my favorite color is blue", "my birthday is May 8", "my sister's name is
// Mei", "my hometown is Xi'an".
bool EnglishReader::ReadMyNounIs(size_t i, size_t* consumed) {
  static const WordSet kFavorite = {"favorite", "favourite", "fave", "fav", "favorit"};
  size_t k = i + 1;
  std::string_view noun = Tok(k).lower;
  Subject speaker;
  // The value: everything to the clause boundary, time expressions included (birthdays).
  auto value_end = [&](size_t b) {
    size_t e = b;
    while (e < size() && !IsBoundaryPunct(e) && e < b + 8 &&
           !(Tok(e).word && e > b && In(ValueCutWords(), Tok(e).lower) && !Tok(e).time) &&
           Tok(e).lower != "and") {
      ++e;
    }
    return e;
  };
  auto copula_at = [&](size_t j) {
    return Tok(j).lower == "is" || Tok(j).lower == "are" || Tok(j).lower == "was";
  };
  if (noun == "name's" || (noun == "name" && copula_at(k + 1))) {
    size_t b = noun == "name's" ? k + 1 : k + 2;
    size_t e = b;
    while (e < b + 3 && Tok(e).name_like) ++e;
    return EmitWithin(speaker, "name", b, e, 0, 0.9, consumed);
  }
  // "my goal is to …", "my dream is to …" — a plan.
  static const WordSet kAims = {"aim",     "goal",      "dream",      "plan",     "hope", "wish",
                                "mission", "intention", "resolution", "ambition", "next"};
  if (In(kAims, noun) && copula_at(k + 1) && Tok(k + 2).lower == "to") {
    return Emit(speaker, "plans_to", "", k + 3, kBitPlanned, 0.65, false, clause_begin_, consumed);
  }
  if (In(kFavorite, noun) && copula_at(k + 1)) {
    return Emit(speaker, "likes", "", k + 2, 0, 0.75, true, clause_begin_, consumed);
  }
  if (In(kFavorite, noun)) {
    size_t j = k + 1;
    while (j < k + 4 && Tok(j).word && !copula_at(j)) ++j;
    if (j == k + 1 || !copula_at(j)) return false;
    std::string slot(SpanText(text_, {Tok(k + 1).span.begin, Tok(j - 1).span.end}));
    return Emit(speaker, "favorite", slot, j + 1, 0, 0.85, true, clause_begin_, consumed);
  }
  if ((noun == "birthday" || noun == "bday") && copula_at(k + 1)) {
    keep_times_ = true;
    bool emitted = EmitWithin(speaker, "birthday", k + 2, value_end(k + 2), 0, 0.9, consumed);
    keep_times_ = false;
    return emitted;
  }
  if (noun == "hometown" && copula_at(k + 1)) {
    return EmitWithin(speaker, "hometown", k + 2, CutValue(k + 2), 0, 0.9, consumed);
  }
  // "my manager is Olivia Chen", "my new GP is Dr Okafor": a person of a role the speaker has one
  // of (relations.tsv `role`), named by a name and nothing else (not "my manager is great", nor
  // "my boss is French Canadian and…").
  {
    size_t r = k;
    if (Tok(r).lower == "new" || Tok(r).lower == "current") ++r;
    if (IsRoleRelation(Tok(r).lower) && copula_at(r + 1)) {
      size_t b = r + 2;
      if (size_t e = NameThatEndsClause(b); e > b) {
        EmitRelationSlot(std::string(Tok(r).lower), {Tok(b).span.begin, Tok(e - 1).span.end}, i, 0);
        *consumed = std::max(*consumed, e);
        return true;
      }
    }
  }
  // "my sister's name is Mei".
  std::string_view possessive = noun;
  if (possessive.size() > 2 && possessive.substr(possessive.size() - 2) == "'s" &&
      In(RelationWords(), possessive.substr(0, possessive.size() - 2)) &&
      Tok(k + 1).lower == "name" && copula_at(k + 2) && Tok(k + 3).name_like) {
    Span relation = {Tok(k).span.begin, Tok(k).span.end - 2};
    size_t e = k + 4;
    if (Tok(e).name_like) ++e;
    EmitRelation(relation, {Tok(k + 3).span.begin, Tok(e - 1).span.end}, i);
    *consumed = std::max(*consumed, e);
    return true;
  }
  return false;
}

// "Blue's my fave", "Playing video games and watching movies are my main hobbies", "Spider-Man
// has always been a favorite of mine": likes (or favorite, when the kind is named: "… is my
// favorite color").
void EnglishReader::ReadFavoriteTails() {
  static const WordSet kNouns = {"favorite",  "favourite",  "fave",  "fav",     "faves",
                                 "favorites", "favourites", "hobby", "hobbies", "passion",
                                 "passions",  "jam",        "go-to"};
  static const WordSet kKinds = {"favorite", "favourite", "fave", "fav"};
  static const WordSet kModifiers = {"main", "all-time", "biggest",  "absolute",
                                     "new",  "top",      "big",      "current",
                                     "true", "favorite", "greatest", "personal"};
  static const WordSet kCopulas = {"is", "are", "was", "were", "been"};
  static const WordSet kNotSlots = {"of", "too", "and",   "ever", "thing",  "one", "by", "for",
                                    "to", "in",  "right", "now",  "lately", "so",  "as", "but"};
  Subject speaker;
  for (size_t f = 2; f < size(); ++f) {
    if (!In(kNouns, Tok(f).lower)) continue;
    size_t m = f - 1;
    if (In(kModifiers, Tok(m).lower) && m >= 2) --m;
    size_t cop = 0;
    if (Tok(m).lower == "my" || Tok(m).lower == "our") {
      cop = m - 1;
      while (cop > 1 && (In(Adverbs(), Tok(cop).lower) || Tok(cop).lower == "much")) --cop;
      if (Tok(cop).lower == "of" && cop >= 2 &&
          (Tok(cop - 1).lower == "one" || Tok(cop - 1).lower == "some")) {
        cop -= 2;
      }
    } else if (Tok(m).lower == "a" && Tok(f + 1).lower == "of" && Tok(f + 2).lower == "mine") {
      cop = m - 1;
    } else {
      continue;
    }
    std::string_view c = Tok(cop).lower;
    size_t np_last = cop;
    size_t fused_bytes = 0;
    if (In(kCopulas, c)) {
      if (cop == 0) continue;
      np_last = cop - 1;
      while (np_last > 0 && (In(Adverbs(), Tok(np_last).lower) || Tok(np_last).lower == "has" ||
                             Tok(np_last).lower == "have")) {
        --np_last;
      }
    } else if (c.size() > 2 && c.substr(c.size() - 2) == "'s" && !In(Pronouns(), c) &&
               c != "what's" && c != "here's" && c != "who's") {
      std::string_view raw = SpanText(text_, Tok(cop).span);
      fused_bytes = raw.size() >= 4 && raw.substr(raw.size() - 4) == "\xE2\x80\x99s" ? 4 : 2;
    } else {
      continue;
    }
    size_t b = np_last;
    while (b > 0 && !IsBoundaryPunct(b - 1) && np_last - b < 8) --b;
    bool hypothetical = false;
    b = SkipLeaders(b, &hypothetical);
    if (hypothetical || b > np_last || In(Pronouns(), Tok(b).lower) || Tok(b).lower == "which" ||
        Tok(b).lower == "what" || Tok(b).lower == "who" || Tok(b).lower == "he" ||
        Tok(b).lower == "she" || Tok(b).lower == "they") {
      continue;
    }
    std::string slot;
    const Token& after = Tok(f + 1);
    if (In(kKinds, Tok(f).lower) && after.word && !In(kNotSlots, after.lower) &&
        !In(EmptyValues(), after.lower) && !after.time) {
      slot = std::string(SpanText(text_, after.span));
    }
    size_t before = out_->size();
    clause_begin_ = b;
    Emit(speaker, slot.empty() ? "likes" : "favorite", slot, b, 0, 0.75, false, b, nullptr,
         np_last + 1);
    if (out_->size() > before && fused_bytes > 0) {
      RawClaim& claim = out_->back();
      if (claim.value.end == Tok(np_last).span.end) {
        claim.value.end -= fused_bytes;
        claim.value = TrimSpan(text_, claim.value);
        if (claim.value.empty()) out_->pop_back();
      }
    }
  }
}

bool EnglishReader::ReadClause(size_t start, bool continuation, bool allow_ing, size_t* consumed) {
  bool hypothetical = false;
  size_t k = SkipLeaders(start, &hypothetical);
  if (hypothetical) {
    // "If I move to Paris, I will learn French": neither clause is a fact.
    bool conditional = Tok(k).lower == "if" || Tok(k).lower == "unless";
    *consumed = conditional ? size() : ClauseEnd(k + 1);
    last_valid_ = false;
    return false;
  }
  if (k >= size()) return false;
  clause_begin_ = start;
  if ((Tok(k).lower == "my" || Tok(k).lower == "our") && ReadMyNounIs(k, consumed)) return true;
  Subject subject;
  Aux aux;
  size_t v = k;
  size_t emitted_before = out_->size();
  keeps_speaker_ = false;
  SubjectResult found = ReadSubject(k, &subject, &aux, &v);
  if (found == SubjectResult::kBlocked) {
    // "It was great, ..." — what follows is not the speaker's; "my eyes hurt, ..." still is.
    last_valid_ = keeps_speaker_;
    if (keeps_speaker_) last_ = Subject{};
    return false;
  }
  bool subjectless = false;
  if (found == SubjectResult::kNone) {
    if (!continuation || !last_valid_) {
      last_valid_ = false;
      return false;
    }
    subject = last_;
    subject.weak = false;
    subjectless = true;
  }
  // Reported speech: "my friend said (that) he moved to Paris", "Mei told me she's vegan".
  if (subject.kind != SubjectKind::kSpeaker && !subjectless) {
    static const WordSet kSay = {"said",     "says",      "told",     "tells",     "mentioned",
                                 "mentions", "texted",    "wrote",    "explained", "shared",
                                 "thinks",   "announced", "admitted", "claims",    "claimed"};
    size_t s = v;
    while (In(Adverbs(), Tok(s).lower)) ++s;
    if (In(kSay, Tok(s).lower)) {
      size_t p = s + 1;
      if (Tok(p).lower == "me" || Tok(p).lower == "us" || Tok(p).lower == "everyone") ++p;
      if (Tok(p).lower == "that") ++p;
      auto it = ReportedPronouns().find(Tok(p).lower);
      if (it == ReportedPronouns().end()) {
        *consumed = std::max(*consumed, p);
        last_valid_ = false;
        return out_->size() > emitted_before;
      }
      ApplyContraction(it->second, &aux);
      subject.qualifiers |= kBitReported;
      subject.weak = false;
      v = p + 1;
    }
  }
  v = ReadAux(v, &aux);
  if (subjectless) {
    // Only a past tense, an -ing form or a perfect: "Joined a club.", "switching to light mode".
    bool ing = FormOf(v, false) == Form::kIng;
    bool ok = aux.been || aux.have || aux.will || IsPastVerb(v) ||
              (ing && allow_ing && !subordinate_ && !GerundSubject(v)) ||
              (aux.modal && aux.negated && Tok(v).lower == "wait") ||
              (allow_ing && k <= first_word_ && !aux.modal && !aux.negated &&
               (Tok(v).lower == "love" || Tok(v).lower == "adore" || Tok(v).lower == "enjoy"));
    if (!ok) {
      last_valid_ = false;
      return false;
    }
  } else {
    last_ = subject;
    last_.qualifiers &= ~kBitReported;
    last_valid_ = true;
  }
  bool emitted = Dispatch(v, subject, aux, subjectless, consumed);
  // A past form, except for verbs that arrange something for later ("I booked a trip for May
  // 4th": the booking is past, the trip is not).
  static const WordSet kArranging = {"book",  "reserve", "buy",  "get",     "register", "sign",  "schedule",
                                     "arrange", "order", "plan", "decide", "agree",    "promise", "organize",
                                     "organise", "set",  "pay",  "confirm", "invite",  "ask"};
  if ((aux.past || IsPastVerb(v)) && !In(kArranging, VerbLemma(Tok(v).lower))) {
    for (size_t i = emitted_before; i < out_->size(); ++i) (*out_)[i].past_tense = true;
  }
  if (emitted || out_->size() > emitted_before) {
    *consumed = std::max(*consumed, v);
    return true;
  }
  return false;
}

void EnglishReader::Run() {
  static const WordSet kContinuations = {"and", "then", "but", "plus", "&"};
  static const WordSet kOpeners = {
      "and",       "but",     "then", "plus",     "because", "cause",  "'cause",   "while",
      "although",  "though",  "when", "since",    "after",   "before", "until",    "once",
      "as",        "whereas", "or",   "that",     "if",      "unless", "whenever", "cuz",
      "yesterday", "today",   "last", "recently", "lately",  "now"};
  // Words after which "I" / "my" open a clause; after a noun they are a relative clause ("the
  // help I got", "the camera I had") and are not read.
  static const WordSet kBeforeSubject = {
      "think",   "guess",    "know",     "hope",    "feel",     "believe",  "mean",  "said",
      "told",    "thought",  "realized", "bet",     "sure",     "glad",     "happy", "proud",
      "excited", "remember", "forgot",   "noticed", "heard",    "that",     "so",    "figured",
      "swear",   "promise",  "realize",  "knew",    "grateful", "thankful", "lucky", "hoping",
      "say",     "tell",     "honestly", "thanks",  "but",      "you",      "ya",    "him",
      "her",     "them",     "us",       "me",      "why"};
  // Introductory phrases after which "I" opens the main clause even without a comma: "after
  // finishing my screenplay I got …", "last Friday at dance class I …".
  static const WordSet kIntroducers = {
      "after", "before",  "when",  "since", "during",  "while",    "once",     "as",
      "if",    "because", "until", "on",    "in",      "at",       "by",       "from",
      "with",  "without", "for",   "like",  "despite", "whenever", "following"};
  bool hypothetical = false;
  first_word_ = SkipLeaders(0, &hypothetical);
  ReadFavoriteTails();
  last_ = Subject{};
  last_valid_ = true;
  size_t i = 0;
  while (i < size()) {
    const Token& t = Tok(i);
    bool after_boundary = i == 0 || IsBoundaryPunct(i - 1);
    bool continuation = after_boundary || In(kContinuations, t.lower);
    bool subject_word = SpeakerSubjects().count(t.lower) > 0 || t.lower == "my" || t.lower == "our";
    const Token& prev = Tok(i - 1);
    bool subject_start = subject_word && i > 0 &&
                         (prev.time || In(kOpeners, prev.lower) || In(Leaders(), prev.lower) ||
                          In(kBeforeSubject, prev.lower) || !prev.word);
    if (subject_word && !subject_start && i > 0) {
      size_t chunk = i - 1;
      while (chunk > 0 && !IsBoundaryPunct(chunk - 1) && i - chunk < 10) --chunk;
      bool unused = false;
      size_t first = SkipLeaders(chunk, &unused);
      subject_start = first < i && (In(kIntroducers, Tok(first).lower) ||
                                    In(kIntroducers, Tok(chunk).lower) || Tok(first).time);
    }
    bool start = t.word && (after_boundary || In(kOpeners, t.lower) || subject_start || t.time);
    if (start) {
      size_t consumed = i;
      ReadClause(i, continuation, after_boundary, &consumed);
      i = std::max(consumed, i + 1);
      continue;
    }
    ++i;
  }
}

unsigned AuxQualifiers(const Aux& aux) {
  unsigned q = 0;
  if (aux.negated) q |= kBitNegated;
  if (aux.habitual) q |= kBitHabitual;
  if (aux.temporary) q |= kBitTemporary;
  if (aux.used_to) q |= kBitPast;
  if (aux.will) q |= kBitPlanned;
  return q;
}

// "lives" → "live", "goes" → "go", "tries" → "try", "watches" → "watch".
std::string ThirdPersonLemma(std::string_view w) {
  if (w == "has") return "have";
  if (w == "does") return "do";
  if (w == "goes") return "go";
  size_t n = w.size();
  if (n > 4 && w.substr(n - 3) == "ies") return std::string(w.substr(0, n - 3)) + "y";
  for (std::string_view end : {"ches", "shes", "sses", "xes", "zes", "oes"}) {
    if (n > end.size() && w.substr(n - end.size()) == end) return std::string(w.substr(0, n - 2));
  }
  return std::string(w.substr(0, n - 1));
}

bool IsDigits(std::string_view w) {
  return !w.empty() && std::all_of(w.begin(), w.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "I'm from X", "I'm a nurse", "I'm vegetarian", "I'm into X", "I was born in X", "I'm 30".
bool EnglishReader::Copula(size_t v, const Subject& subject, const Aux& aux, size_t* consumed) {
  static const WordSet kIntensifiers = {
      "so",         "very",       "really",   "super",    "pretty",     "quite",
      "now",        "happily",    "recently", "newly",    "also",       "still",
      "originally", "definitely", "totally",  "such",     "officially", "finally",
      "just",       "real",       "kinda",    "kind",     "crazy",      "of",
      "always",     "all",        "even",     "actually", "honestly"};
  static const WordSet kFanAdjectives = {"big",      "huge", "massive",  "great",    "total",
                                         "die-hard", "true", "longtime", "lifelong", "avid"};
  static const WordSet kJobPreps = {"at",  "for",  "in",      "with",  "from", "who",
                                    "and", "that", "working", "based", "of"};
  unsigned q = AuxQualifiers(aux);
  bool speaker = subject.kind == SubjectKind::kSpeaker;
  size_t k = v;
  while (k < v + 3 && In(kIntensifiers, Tok(k).lower)) ++k;
  std::string_view w = Tok(k).lower;
  std::string_view next = Tok(k + 1).lower;
  if (!Tok(k).word) return false;
  if (w == "from")
    return Emit(subject, "hometown", "", k + 1, q, 0.85, true, clause_begin_, consumed);
  if (w == "into") return Emit(subject, "likes", "", k + 1, q, 0.8, true, clause_begin_, consumed);
  if ((w == "passionate" || w == "obsessed" || w == "crazy" || w == "addicted" || w == "hooked" ||
       w == "keen") &&
      (next == "about" || next == "with" || next == "on")) {
    return Emit(subject, "likes", "", k + 2, q, 0.8, true, clause_begin_, consumed);
  }
  if (w == "a" || w == "an") {
    size_t j = k + 1;
    while (j < k + 4 && In(kFanAdjectives, Tok(j).lower)) ++j;
    if (Tok(j).lower == "fan" && Tok(j + 1).lower == "of") {
      return Emit(subject, "likes", "", j + 2, q, 0.85, true, clause_begin_, consumed);
    }
  }
  if ((w == "based" || w == "located" || w == "settled") && next == "in") {
    return Emit(subject, "lives_in", "", k + 2, q, 0.85, true, clause_begin_, consumed);
  }
  if (w == "born" && (next == "in" || next == "on")) {
    if (Tok(k + 2).time) {
      size_t e = k + 2;
      while (Tok(e).time) ++e;
      keep_times_ = true;
      bool emitted = EmitWithin(subject, "birthday", k + 2, e, q & ~kBitPast, 0.85, consumed);
      keep_times_ = false;
      return emitted;
    }
    return Emit(subject, "hometown", "", k + 2, q, 0.85, true, clause_begin_, consumed);
  }
  if (w == "allergic" && next == "to") {
    return Emit(subject, "status", "", k, q, 0.8, false, clause_begin_, consumed);
  }
  if (IsDigits(w) && w.size() <= 3 && speaker) {
    if (next == "years" && (Tok(k + 2).lower == "old" || Tok(k + 2).lower == "young")) {
      return EmitWithin(subject, "age", k, k + 1, q, 0.85, consumed);
    }
    if (!Tok(k + 1).word) return EmitWithin(subject, "age", k, k + 1, q, 0.75, consumed);
    return false;
  }
  if (In(StatusWords(), w) && !(w == "mom" || w == "dad" || w == "parent")) {
    unsigned past = aux.past ? kBitPast : 0;
    size_t e = (next == "to" || next == "with") ? CutValue(k) : k + 1;
    return EmitWithin(subject, "status", k, e, q | past, 0.8, consumed);
  }
  if ((w == "a" || w == "an") && In(StatusWords(), next)) {
    return EmitWithin(subject, "status", k + 1, k + 2, q | (aux.past ? kBitPast : 0), 0.75,
                      consumed);
  }
  if ((w == "named" || w == "called") && Tok(k + 1).name_like &&
      subject.kind == SubjectKind::kRelative && !subject.relation.empty()) {
    size_t e = k + 2;
    if (Tok(e).name_like) ++e;
    EmitRelation(subject.relation, {Tok(k + 1).span.begin, Tok(e - 1).span.end}, clause_begin_);
    *consumed = std::max(*consumed, e);
    return true;
  }
  // "I'm off to go swimming", "I'm stoked to start this new chapter".
  static const WordSet kEagerTo = {"off",     "excited", "stoked",     "thrilled", "eager",
                                   "ready",   "keen",    "pumped",     "psyched",  "planning",
                                   "hoping",  "about",   "determined", "looking",  "dying",
                                   "itching", "set",     "aiming",     "trying",   "going"};
  if (In(kEagerTo, w) && next == "to" && IsBaseVerbAt(k + 2) && Tok(k + 2).lower != "be") {
    return Emit(subject, "plans_to", "", k + 2, q | kBitPlanned, 0.6, false, clause_begin_,
                consumed);
  }
  // "I'm a (big) sucker for X", "I'm a fan of X" (above).
  if ((w == "a" || w == "an") && (next == "sucker" || Tok(k + 2).lower == "sucker")) {
    size_t j = next == "sucker" ? k + 2 : k + 3;
    if (Tok(j).lower == "for") {
      return Emit(subject, "likes", "", j + 1, q, 0.75, true, clause_begin_, consumed);
    }
  }
  if (w == "busy" && next == "with") {
    return Emit(subject, "doing", "", k + 2, q, 0.55, true, clause_begin_, consumed);
  }
  if (w == "busy" && FormOf(k + 1, false) == Form::kIng) {
    return EmitWithin(subject, "doing", k + 1, CutValue(k + 1), q, 0.6, consumed);
  }
  // "I'm a (software) engineer (at Org-O)", "I'm a student at X".
  if (w == "a" || w == "an" || (w == "the" && subject.kind != SubjectKind::kSpeaker)) {
    size_t e = CutValue(k + 1);
    size_t head_end = k + 1;
    while (head_end < e && !In(kJobPreps, Tok(head_end).lower)) ++head_end;
    if (head_end == k + 1) return false;
    std::string_view head = Tok(head_end - 1).lower;
    bool job = In(JobNouns(), head) ||
               (head.size() > 5 &&
                (head.substr(head.size() - 3) == "ist" || head.substr(head.size() - 3) == "ian") &&
                head != "christian" && head != "vegetarian");
    if (!job) return false;
    unsigned past = aux.past ? kBitPast : 0;
    bool any = EmitWithin(subject, "job", k + 1, head_end, q | past, 0.85, consumed);
    std::string_view prep = Tok(head_end).lower;
    if (prep == "at" || prep == "for" || (prep == "in" && Tok(head_end + 1).name_like)) {
      std::string_view predicate = head == "student" ? "school" : "employer";
      any |=
          Emit(subject, predicate, "", head_end + 1, q | past, 0.8, true, clause_begin_, consumed);
    }
    return any;
  }
  // "Hi, I'm Lin." — a name that ends the clause, in the sentence's first clause.
  if (Tok(k).name_like && speaker && k == v && clause_begin_ <= first_word_ && !aux.past &&
      !aux.negated) {
    size_t e = k + 1;
    if (Tok(e).name_like) ++e;
    if (!Tok(e).word) return EmitWithin(subject, "name", k, e, 0, 0.75, consumed);
  }
  return false;
}

// Objects of "have" that are experiences, not possessions ("a great time", "no idea").
bool NotAPossession(std::string_view head) {
  static const WordSet kHeads = {
      "time",     "idea",      "question",   "questions",    "feeling", "chance",    "look",
      "problem",  "problems",  "blast",      "day",          "night",   "week",      "weekend",
      "moment",   "fun",       "experience", "conversation", "chat",    "talk",      "lunch",
      "dinner",   "breakfast", "meal",       "party",        "break",   "clue",      "plans",
      "plan",     "trouble",   "difficulty", "crush",        "cold",    "headache",  "fever",
      "class",    "classes",   "work",       "school",       "meeting", "interview", "dream",
      "dreams",   "faith",     "doubts",     "lot",          "lots",    "bit",       "way",
      "reason",   "reasons",   "thoughts",   "opinion",      "effect",  "impact",    "job",
      "blast",    "goal",      "goals",      "passion",      "love",    "interest",  "respect",
      "hope",     "patience",  "energy",     "issues",       "issue",   "ideas",     "something",
      "anything", "nothing",   "it",         "them",         "one",     "ones",      "been",
      "to",       "got",       "had"};
  return In(kHeads, head);
}

bool EnglishReader::Dispatch(size_t v, const Subject& subject, const Aux& aux, bool subjectless,
                             size_t* consumed) {
  const Token& t = Tok(v);
  if (!t.word) return false;
  std::string_view w = t.lower;
  std::string_view next = Tok(v + 1).lower;
  std::string_view next2 = Tok(v + 2).lower;
  unsigned q = AuxQualifiers(aux);
  bool speaker = subject.kind == SubjectKind::kSpeaker;
  auto emit = [&](std::string_view predicate, size_t begin, unsigned quals, double confidence,
                  bool strip = true, std::string slot = "") {
    return Emit(subject, predicate, std::move(slot), begin, quals, confidence, strip, clause_begin_,
                consumed);
  };

  // Modal verbs: wishes and plans only.
  if (aux.modal && !aux.will) {
    if ((w == "love" || w == "like") && next == "to") {
      return emit("plans_to", v + 2, q | kBitPlanned, 0.6, false);
    }
    if (w == "rather") return emit("prefers", v + 1, q, 0.7);
    if (w == "stand" && aux.negated) return emit("likes", v + 1, q, 0.8);
    if (w == "wait" && aux.negated && (next == "to" || next == "for")) {
      return emit("plans_to", v + 2, (q & ~kBitNegated) | kBitPlanned, 0.65, next == "for");
    }
    return false;
  }
  if (w == "to" && aux.been) return emit("went_to", v + 1, q & ~kBitPlanned, 0.8);
  Form form = FormOf(v, subject.third);
  if (aux.be && form != Form::kIng) return Copula(v, subject, aux, consumed);
  // Agreement: "Mei lives", "my kids love"; "Stuff like ..." or "my fam around ..." is no clause.
  bool bare = !aux.do_support && !aux.will && !aux.modal && !aux.used_to && !aux.have;
  if (bare && subject.kind != SubjectKind::kSpeaker && !subjectless) {
    if (form == Form::kBase && !subject.plural) return false;
    if (form == Form::kThird && subject.plural) return false;
  }

  enum class Tense { kPresent, kPast, kPerfect, kProgressive, kFuture };
  Tense tense = Tense::kPresent;
  if (aux.will) {
    tense = Tense::kFuture;
  } else if (form == Form::kIng) {
    tense = Tense::kProgressive;
  } else if (aux.have) {
    tense = Tense::kPerfect;
  } else if (aux.do_support) {
    tense = aux.past ? Tense::kPast : Tense::kPresent;
  } else if (form == Form::kPast) {
    tense = Tense::kPast;
  }
  if (aux.used_to) tense = Tense::kPresent;
  bool done = tense == Tense::kPast || tense == Tense::kPerfect;
  bool ahead = tense == Tense::kFuture || tense == Tense::kProgressive;
  std::string lemma = form == Form::kThird ? ThirdPersonLemma(w) : VerbLemma(w);

  // "I report to Raj Patel", "I'm reporting to Dana now": the speaker's manager.
  if (speaker && lemma == "report" && next == "to" && tense != Tense::kFuture &&
      (q & (kBitNegated | kBitPast | kBitPlanned)) == 0) {  // not "I don't report to Dana anymore"
    if (size_t e = NameThatEndsClause(v + 2); e > v + 2) {
      EmitRelationSlot("manager", {Tok(v + 2).span.begin, Tok(e - 1).span.end}, clause_begin_, q);
      *consumed = std::max(*consumed, e);
      return true;
    }
  }
  // ---- Plans ----
  static const WordSet kPlanVerbs = {"plan",   "hope",    "intend", "aim",    "want",
                                     "decide", "prepare", "expect", "aspire", "wish"};
  if (In(kPlanVerbs, lemma) && next == "to") {
    unsigned past =
        (done && (lemma == "want" || lemma == "hope" || lemma == "wish")) ? kBitPast : 0;
    return emit("plans_to", v + 2, q | kBitPlanned | past, lemma == "plan" ? 0.75 : 0.65, false);
  }
  if (lemma == "plan" && (next == "on" || next == "for")) {
    return emit("plans_to", v + 2, q | kBitPlanned, 0.7, FormOf(v + 2, false) != Form::kIng);
  }
  if (lemma == "plan") return emit("plans_to", v + 1, q | kBitPlanned, 0.7);
  if (w == "wanna") return emit("plans_to", v + 1, q | kBitPlanned, 0.6, false);
  if ((lemma == "think" || lemma == "dream" || lemma == "consider") &&
      (next == "of" || next == "about") && FormOf(v + 2, false) == Form::kIng) {
    return emit("plans_to", v + 2, q | kBitPlanned, 0.65, false);
  }
  if (w == "considering" && FormOf(v + 1, false) == Form::kIng) {
    return emit("plans_to", v + 1, q | kBitPlanned, 0.6, false);
  }
  if (lemma == "look" && next == "forward" && next2 == "to") {
    return emit("plans_to", v + 3, q | kBitPlanned, 0.65, FormOf(v + 3, false) != Form::kIng);
  }
  if ((w == "going" || w == "heading" || w == "off") && next == "to") {
    return emit("went_to", v + 2, q | kBitPlanned, 0.7);
  }

  // ---- Where one lives, works, studies ----
  if (lemma == "live" && (next == "in" || next == "at" || next == "near" || next == "on")) {
    unsigned past = (tense == Tense::kPast && !aux.have) ? kBitPast : 0;
    return emit("lives_in", v + 2, q | past, 0.9);
  }
  if (lemma == "move" || lemma == "relocate") {
    size_t b = std::string_view::npos;
    if (next == "to" || next == "into") b = v + 2;
    if ((next == "back" || next == "out" || next == "over" || next == "here" || next == "there") &&
        next2 == "to") {
      b = v + 3;
    }
    if (b != std::string_view::npos) {
      size_t e = CutValue(b);
      std::string slot =
          e > b ? UsesSlot(SpanText(text_, {Tok(b).span.begin, Tok(e - 1).span.end})) : "";
      unsigned planned = ahead ? kBitPlanned : 0;
      if (!slot.empty()) return emit("uses", b, q | planned, 0.8, true, slot);
      return emit("lives_in", b, q | planned, 0.85);
    }
  }
  if (lemma == "work" && (next == "at" || next == "for" || next == "as")) {
    unsigned past = (tense == Tense::kPast && !aux.have) ? kBitPast : 0;
    bool any = emit(next == "as" ? "job" : "employer", v + 2, q | past, 0.85);
    size_t after = *consumed;
    if (any && (Tok(after).lower == "as" || Tok(after).lower == "at")) {
      emit(Tok(after).lower == "as" ? "job" : "employer", after + 1, q | past, 0.85);
    }
    return any;
  }
  if (lemma == "study" && (next == "at" || (next == "in" && Tok(v + 2).name_like))) {
    return emit("school", v + 2, q, 0.85);
  }
  if (lemma == "teach" && next == "at") return emit("employer", v + 2, q, 0.7);
  if (lemma == "grow" && next == "up" && (next2 == "in" || next2 == "on")) {
    return emit("hometown", v + 3, q, 0.85);
  }
  if (lemma == "turn" && done && IsDigits(next) && next.size() <= 3 && speaker) {
    return EmitWithin(subject, "age", v + 1, v + 2, q, 0.7, consumed);
  }
  if (lemma == "marry" && done && !aux.be) {
    return EmitWithin(subject, "status", v, v + 1, q, 0.8, consumed);
  }

  // ---- Preferences ----
  if (lemma == "like" || lemma == "love" || lemma == "enjoy" || lemma == "adore") {
    size_t b = next == "to" ? v + 2 : v + 1;
    return emit("likes", b, q, 0.85, FormOf(b, false) != Form::kIng);
  }
  if (lemma == "hate" || lemma == "dislike" || lemma == "detest" || lemma == "loathe" ||
      lemma == "despise") {
    size_t b = next == "to" ? v + 2 : v + 1;
    return emit("likes", b, q ^ kBitNegated, 0.85, FormOf(b, false) != Form::kIng);
  }
  if (lemma == "prefer") {
    size_t b = next == "to" ? v + 2 : v + 1;
    size_t e = CutValue(b);
    for (size_t k = b + 1; k < e; ++k) {
      std::string_view cut = Tok(k).lower;
      if (cut == "to" || cut == "over" || cut == "than" || cut == "instead" || cut == "rather") {
        e = k;
        break;
      }
    }
    return Emit(subject, "prefers", "", b, q, 0.85, true, clause_begin_, consumed, e);
  }

  // ---- Possessions ----
  if (lemma == "own" || lemma == "possess") return emit("owns", v + 1, q, 0.85);
  if (lemma == "have" && !aux.have && !done && tense != Tense::kFuture) {
    if (next == "to" || next == "got" || next == "been") return false;
    size_t b = v + 1;
    size_t e = CutValue(b);
    if (e <= b) return false;
    // "I have a sister named Mei".
    for (size_t k = b; k < e && k < b + 4; ++k) {
      if (In(RelationWords(), Tok(k).lower)) {
        size_t n = k + 1;
        if (Tok(n).lower == "named" || Tok(n).lower == "called") ++n;
        if (n > k + 1 && Tok(n).name_like) {
          size_t ne = n + 1;
          if (Tok(ne).name_like) ++ne;
          EmitRelation(Tok(k).span, {Tok(n).span.begin, Tok(ne - 1).span.end}, clause_begin_);
          *consumed = std::max(*consumed, ne);
          return true;
        }
      }
    }
    if (NotAPossession(Tok(e - 1).lower) || NotAPossession(Tok(b).lower) || Tok(b).lower == "no") {
      return false;
    }
    return emit("owns", b, q, 0.7);
  }
  if (lemma == "get" && (done || (aux.have && w == "got"))) {
    if (next == "back" && next2 == "from") return emit("went_to", v + 3, q, 0.75);
    if (next == "married" || next == "engaged" || next == "divorced") {
      return EmitWithin(subject, "status", v + 1, v + 2, q, 0.85, consumed);
    }
    if (next == "to" && IsBaseVerbAt(v + 2)) return emit("did", v + 2, q, 0.6, false);
    static const WordSet kDeterminers = {"a",       "an",    "my",   "our",   "new",    "some",
                                         "two",     "three", "this", "these", "myself", "ourselves",
                                         "another", "the",   "lots", "tons",  "plenty", "loads"};
    if (In(kDeterminers, next)) {
      size_t b = (next == "myself" || next == "ourselves") ? v + 2 : v + 1;
      size_t e = CutValue(b);
      if (e > b && !NotAPossession(Tok(e - 1).lower)) return emit("owns", b, q, 0.65);
    }
    if (aux.have && w == "got") return false;
  }
  if ((lemma == "come" || lemma == "be") && next == "back" && next2 == "from") {
    return emit("went_to", v + 3, q, 0.75);
  }
  if (lemma == "return" && next == "from") return emit("went_to", v + 2, q, 0.75);
  if ((lemma == "buy" || lemma == "purchase" || lemma == "adopt" || lemma == "acquire") && done) {
    return emit("owns", v + 1, q, 0.75);
  }
  if ((lemma == "sell" || lemma == "lose") && done) {
    return emit("owns", v + 1, q ^ kBitNegated, 0.75);
  }
  if (lemma == "give" && next == "away" && done) {
    return emit("owns", v + 2, q ^ kBitNegated, 0.75);
  }

  // ---- Going places ----
  static const WordSet kGo = {"go",   "travel", "fly",  "drive", "head", "walk",
                              "ride", "return", "sail", "come",  "get",  "road-trip"};
  if (In(kGo, lemma)) {
    size_t b = std::string_view::npos;
    if (next == "to") b = v + 2;
    if ((next == "back" || next == "out" || next == "over" || next == "down" || next == "up" ||
         next == "abroad") &&
        next2 == "to") {
      b = v + 3;
    }
    if (b != std::string_view::npos && !IsBaseVerbAt(b) && (lemma != "get" || done)) {
      if (tense == Tense::kPresent && lemma == "go") {
        return emit("habit", b, q | kBitHabitual, 0.6, true, "go");
      }
      return emit("went_to", b, q | (ahead ? kBitPlanned : 0), 0.75);
    }
    if (lemma == "go" && FormOf(v + 1, false) == Form::kIng) {
      if (tense == Tense::kPresent) return emit("habit", v + 1, q | kBitHabitual, 0.6, false, "go");
      if (tense == Tense::kFuture) return emit("plans_to", v, q, 0.6, false);
      return emit("did", v, q, 0.65, false);
    }
  }
  if (lemma == "visit" || lemma == "tour") {
    if (tense == Tense::kPresent) return emit("habit", v + 1, q | kBitHabitual, 0.6, true, lemma);
    return emit("went_to", v + 1, q | (tense == Tense::kFuture ? kBitPlanned : 0), 0.8);
  }

  // ---- Joining, attending, starting, finishing ----
  if (lemma == "join") return emit("joined", v + 1, q | (ahead ? kBitPlanned : 0), 0.8);
  if (lemma == "sign" && next == "up" && (next2 == "for" || next2 == "to" || next2 == "with")) {
    return emit("joined", v + 3, q | (ahead ? kBitPlanned : 0), 0.75);
  }
  if (lemma == "attend") {
    if (tense == Tense::kPresent) return emit("habit", v + 1, q | kBitHabitual, 0.6, true, lemma);
    return emit("attended", v + 1, q | (ahead ? kBitPlanned : 0), 0.8);
  }
  if (lemma == "start" || lemma == "begin" || lemma == "launch" || lemma == "found" ||
      (lemma == "take" && next == "up")) {
    size_t b = lemma == "take" ? v + 2 : v + 1;
    if (Tok(b).lower == "to") ++b;
    bool verb_value = FormOf(b, false) == Form::kIng || IsBaseVerbAt(b);
    if (Tok(b).word) return emit("started", b, q | (ahead ? kBitPlanned : 0), 0.75, !verb_value);
  }
  if (lemma == "finish" || lemma == "complete") {
    return emit("finished", v + 1, q | (ahead ? kBitPlanned : 0), 0.75);
  }
  if (lemma == "graduate") {
    return emit("finished", next == "from" ? v + 2 : v + 1, q | (ahead ? kBitPlanned : 0), 0.8);
  }

  // ---- Habits that stop or go on ----
  if (lemma == "stop" || lemma == "quit" || (lemma == "give" && next == "up") ||
      (lemma == "cut" && next == "out")) {
    size_t b = (lemma == "give" || lemma == "cut") ? v + 2 : v + 1;
    if (FormOf(b, false) == Form::kIng && !Tok(b).time) {
      std::string slot = VerbLemma(Tok(b).lower);
      unsigned quals = (q ^ kBitNegated) | kBitHabitual;
      if (emit("habit", b + 1, quals, 0.8, true, slot)) return true;
      return Emit(subject, "habit", slot, b, quals, 0.75, false, clause_begin_, consumed, b + 1);
    }
  }
  if (lemma == "keep" && FormOf(v + 1, false) == Form::kIng) {
    std::string slot = VerbLemma(next);
    if (emit("habit", v + 2, q | kBitHabitual, 0.65, true, slot)) return true;
  }

  // ---- Tools and settings ----
  if ((lemma == "use" || lemma == "utilize") && tense != Tense::kPast) {
    size_t e = CutValue(v + 1);
    std::string slot =
        e > v + 1 ? UsesSlot(SpanText(text_, {Tok(v + 1).span.begin, Tok(e - 1).span.end})) : "";
    return emit("uses", v + 1, q, slot.empty() ? 0.6 : 0.8, true, slot);
  }
  if (lemma == "switch" || lemma == "change" || lemma == "convert" || lemma == "swap") {
    size_t b = std::string_view::npos;
    if (next == "to") b = v + 2;
    if ((next == "back" || next == "over") && next2 == "to") b = v + 3;
    if (b != std::string_view::npos) {
      size_t e = CutValue(b);
      std::string slot =
          e > b ? UsesSlot(SpanText(text_, {Tok(b).span.begin, Tok(e - 1).span.end})) : "";
      return emit("uses", b, q & ~kBitPlanned, slot.empty() ? 0.6 : 0.8, true, slot);
    }
  }

  // ---- Anything else the speaker did, does, is doing or will do ----
  if (subject.weak) return false;
  static const WordSet kNotProgressive = {"feel",  "think", "hope",  "wonder",  "mean", "wish",
                                          "guess", "kid",   "joke",  "say",     "tell", "ask",
                                          "look",  "talk",  "chat",  "sound",   "seem", "be",
                                          "try",   "reach", "reply", "respond", "text", "message"};
  static const WordSet kDoingWell = {"great",   "well",    "good",      "ok",
                                     "okay",    "fine",    "better",    "alright",
                                     "awesome", "amazing", "fantastic", "pretty"};
  size_t e = TrimDangling(v, CutValue(v));
  bool verb_only = e <= v + 1;
  // "made it", "check it out": the object is only a pronoun.
  static const WordSet kPronounObjects = {
      "it",   "them", "this",  "that", "these", "those", "him",    "her",  "me", "us",   "you",
      "one",  "out",  "up",    "in",   "on",    "into",  "about",  "with", "to", "so",   "there",
      "here", "too",  "again", "back", "over",  "off",   "around", "all",  "ya", "down", "through"};
  bool pronoun_object = !verb_only;
  for (size_t k = v + 1; k < e; ++k) {
    if (Tok(k).word && !In(kPronounObjects, Tok(k).lower)) pronoun_object = false;
  }
  if (pronoun_object) return false;
  switch (tense) {
    case Tense::kFuture:
      if (In(MentalVerbs(), lemma) && lemma != "do" && lemma != "get" && lemma != "have") {
        return false;
      }
      if (verb_only) return false;
      return emit("plans_to", v, q | kBitPlanned, 0.6, false);
    case Tense::kProgressive:
      if (In(kNotProgressive, lemma) || (lemma == "do" && In(kDoingWell, next))) return false;
      if (verb_only && (subjectless || In(MentalVerbs(), lemma))) return false;
      return emit("doing", v, q, 0.6, false);
    case Tense::kPast:
    case Tense::kPerfect:
      if (In(MentalVerbs(), w) || In(AdjectivesInEd(), w) || lemma == "be") return false;
      if (aux.do_support && In(MentalVerbs(), lemma)) return false;
      if (verb_only) return false;
      return emit("did", v, q, 0.6, false);
    case Tense::kPresent:
      if (In(MentalVerbs(), lemma) || In(MentalVerbs(), w) || verb_only) return false;
      if (!speaker && !subject.third) return false;
      if (form == Form::kBase && subject.kind == SubjectKind::kNamed && !aux.do_support &&
          !aux.used_to) {
        return false;  // "Mei live ..." is no sentence
      }
      if (subjectless) return false;
      return emit("habit", v + 1, q | kBitHabitual, aux.habitual ? 0.7 : 0.6, true, lemma);
  }
  return false;
}

}  // namespace

void ReadEnglish(std::string_view text, const Sentence& sentence, const std::vector<Span>& times,
                 std::vector<RawClaim>* out) {
  EnglishReader reader(text, sentence, times, out);
  reader.Run();
}

}  // namespace engram::extraction::rules
