"""Synthetic identities: names, medical record numbers, phone numbers, addresses, NPIs.

Every value is drawn from built-in lists with a caller's ``random.Random``, so identities are
reproducible; phone numbers use the fictional 555-01xx range.
"""

from __future__ import annotations

import hashlib
import random

MRN_SYSTEM = "urn:oid:2.16.840.1.113883.3.9999.1"
NPI_SYSTEM = "http://hl7.org/fhir/sid/us-npi"

FEMALE_GIVEN = (
    "Mary", "Patricia", "Jennifer", "Linda", "Elizabeth", "Barbara", "Susan", "Jessica", "Sarah",
    "Karen", "Lisa", "Nancy", "Betty", "Margaret", "Sandra", "Ashley", "Kimberly", "Emily",
    "Donna", "Michelle", "Carol", "Amanda", "Dorothy", "Melissa", "Deborah", "Stephanie",
    "Rebecca", "Sharon", "Laura", "Cynthia", "Kathleen", "Amy", "Angela", "Shirley", "Anna",
    "Brenda", "Pamela", "Emma", "Nicole", "Helen", "Samantha", "Katherine", "Christine", "Debra",
    "Rachel", "Carolyn", "Janet", "Catherine", "Maria", "Heather", "Diane", "Ruth", "Julie",
    "Olivia", "Joyce", "Virginia", "Victoria", "Kelly", "Lauren", "Christina", "Joan", "Evelyn",
    "Judith", "Megan", "Andrea", "Cheryl", "Hannah", "Jacqueline", "Martha", "Gloria", "Teresa",
    "Ana", "Rosa", "Mei", "Priya", "Aisha", "Fatima", "Guadalupe", "Yolanda", "Keisha", "Lin",
)
MALE_GIVEN = (
    "James", "Robert", "John", "Michael", "David", "William", "Richard", "Joseph", "Thomas",
    "Charles", "Christopher", "Daniel", "Matthew", "Anthony", "Mark", "Donald", "Steven", "Paul",
    "Andrew", "Joshua", "Kenneth", "Kevin", "Brian", "George", "Timothy", "Ronald", "Edward",
    "Jason", "Jeffrey", "Ryan", "Jacob", "Gary", "Nicholas", "Eric", "Jonathan", "Stephen",
    "Larry", "Justin", "Scott", "Brandon", "Benjamin", "Samuel", "Gregory", "Alexander", "Frank",
    "Patrick", "Raymond", "Jack", "Dennis", "Jerry", "Tyler", "Aaron", "Jose", "Adam", "Nathan",
    "Henry", "Douglas", "Zachary", "Peter", "Kyle", "Walter", "Ethan", "Jeremy", "Harold",
    "Carl", "Keith", "Roger", "Gerald", "Luis", "Carlos", "Juan", "Wei", "Raj", "Omar", "Ahmed",
    "Hiroshi", "Dmitri", "Tariq", "Andre", "Malik",
)
MIDDLE_INITIALS = "ABCDEFGHJKLMNPRSTW"
FAMILY = (
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez",
    "Martinez", "Hernandez", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor",
    "Moore", "Jackson", "Martin", "Lee", "Perez", "Thompson", "White", "Harris", "Sanchez",
    "Clark", "Ramirez", "Lewis", "Robinson", "Walker", "Young", "Allen", "King", "Wright",
    "Scott", "Torres", "Nguyen", "Hill", "Flores", "Green", "Adams", "Nelson", "Baker", "Hall",
    "Rivera", "Campbell", "Mitchell", "Carter", "Roberts", "Gomez", "Phillips", "Evans",
    "Turner", "Diaz", "Parker", "Cruz", "Edwards", "Collins", "Reyes", "Stewart", "Morris",
    "Morales", "Murphy", "Cook", "Rogers", "Gutierrez", "Ortiz", "Morgan", "Cooper", "Peterson",
    "Bailey", "Reed", "Kelly", "Howard", "Ramos", "Kim", "Cox", "Ward", "Richardson", "Watson",
    "Brooks", "Chavez", "Wood", "James", "Bennett", "Gray", "Mendoza", "Ruiz", "Hughes", "Price",
    "Alvarez", "Castillo", "Sanders", "Patel", "Myers", "Long", "Ross", "Foster", "Jimenez",
    "Chen", "Wang", "Singh", "Okafor", "Nakamura", "Kowalski", "Haddad", "Novak", "Shah",
)
STREETS = (
    "Oak", "Maple", "Cedar", "Pine", "Elm", "Washington", "Lake", "Hill", "Park", "Sunset",
    "Willow", "Highland", "Meadow", "River", "Church", "Spring", "Forest", "Franklin", "Lincoln",
    "Jefferson", "Madison", "Chestnut", "Walnut", "Birch", "Valley", "Ridge", "Mill", "Orchard",
)
STREET_KINDS = ("St", "Ave", "Rd", "Dr", "Ln", "Ct", "Way", "Blvd", "Pl")
CITIES = (
    ("Palo Alto", "CA", "943"), ("San Jose", "CA", "951"), ("Fremont", "CA", "945"),
    ("Sunnyvale", "CA", "940"), ("Redwood City", "CA", "940"), ("San Mateo", "CA", "944"),
    ("Mountain View", "CA", "940"), ("Santa Clara", "CA", "950"), ("Hayward", "CA", "945"),
    ("Menlo Park", "CA", "940"), ("Milpitas", "CA", "950"), ("Union City", "CA", "945"),
)
AREA_CODES = ("408", "415", "510", "650", "669", "925")


def given_names(rng: random.Random, gender: str) -> list[str]:
    """A first name for the gender and, often, a middle initial."""
    pool = FEMALE_GIVEN if gender == "female" else MALE_GIVEN
    names = [rng.choice(pool)]
    if rng.random() < 0.6:
        names.append(rng.choice(MIDDLE_INITIALS) + ".")
    return names


def family_name(rng: random.Random) -> str:
    """A family name from the built-in list."""
    return rng.choice(FAMILY)


def phone(rng: random.Random) -> str:
    """A fictional US phone number (555-01xx exchange)."""
    return f"({rng.choice(AREA_CODES)}) 555-01{rng.randrange(100):02d}"


def address(rng: random.Random) -> dict[str, object]:
    """A synthetic FHIR Address."""
    city, state, zip3 = rng.choice(CITIES)
    line = f"{rng.randrange(10, 9990)} {rng.choice(STREETS)} {rng.choice(STREET_KINDS)}"
    return {"use": "home", "type": "physical", "line": [line], "city": city, "state": state,
            "postalCode": f"{zip3}{rng.randrange(100):02d}", "country": "US"}


def address_from_line(text: str, rng: random.Random) -> dict[str, object]:
    """A FHIR Address whose street line is ``text`` and whose city is drawn."""
    generated = address(rng)
    return {**generated, "line": [text]}


def mrn_for_id(patient_id: str) -> str:
    """A stable 8-digit MRN for a story patient, derived from its id (prefix 9)."""
    digest = int(hashlib.sha256(patient_id.encode()).hexdigest(), 16)
    return f"9{digest % 10_000_000:07d}"


def background_mrn(index: int, seed: int) -> str:
    """A unique 8-digit MRN for background patient ``index`` (prefixes 1-8, never 9)."""
    spread = (index * 7_919_993 + seed * 104_729) % 80_000_000
    return f"{10_000_000 + spread:08d}"


def npi_check_digit(base9: str) -> int:
    """The Luhn check digit of a 9-digit NPI base (with the 80840 card-issuer prefix)."""
    total = 24
    for position, char in enumerate(reversed(base9)):
        digit = int(char)
        if position % 2 == 0:
            digit *= 2
            digit = digit - 9 if digit > 9 else digit
        total += digit
    return (10 - total % 10) % 10


def npi(serial: int) -> str:
    """A synthetic 10-digit NPI that passes the Luhn check."""
    base = f"1{(serial * 48_271) % 100_000_000:08d}"
    return base + str(npi_check_digit(base))


def npi_is_valid(value: str) -> bool:
    """Whether a 10-digit string passes the NPI Luhn check."""
    return len(value) == 10 and value.isdigit() and npi_check_digit(value[:9]) == int(value[9])
