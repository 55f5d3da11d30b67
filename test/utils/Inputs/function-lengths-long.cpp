// Input of test/utils/function-lengths.test: two functions longer than
// 120 lines (reported) among look-alikes that are not functions or are
// not as long as they seem (not reported). Not compiled.
// clang-format off
#include <string>
#define OPEN_BRACE {

namespace demo {

// 130 lines, from its `{` to its `}`.
int longFunction(int x) {
  x += 0; // { a brace in a comment
  x += 1; // { a brace in a comment
  x += 2; // { a brace in a comment
  x += 3; // { a brace in a comment
  x += 4; // { a brace in a comment
  x += 5; // { a brace in a comment
  x += 6; // { a brace in a comment
  x += 7; // { a brace in a comment
  x += 8; // { a brace in a comment
  x += 9; // { a brace in a comment
  x += 10; // { a brace in a comment
  x += 11; // { a brace in a comment
  x += 12; // { a brace in a comment
  x += 13; // { a brace in a comment
  x += 14; // { a brace in a comment
  x += 15; // { a brace in a comment
  x += 16; // { a brace in a comment
  x += 17; // { a brace in a comment
  x += 18; // { a brace in a comment
  x += 19; // { a brace in a comment
  x += 20; // { a brace in a comment
  x += 21; // { a brace in a comment
  x += 22; // { a brace in a comment
  x += 23; // { a brace in a comment
  x += 24; // { a brace in a comment
  x += 25; // { a brace in a comment
  x += 26; // { a brace in a comment
  x += 27; // { a brace in a comment
  x += 28; // { a brace in a comment
  x += 29; // { a brace in a comment
  x += 30; // { a brace in a comment
  x += 31; // { a brace in a comment
  x += 32; // { a brace in a comment
  x += 33; // { a brace in a comment
  x += 34; // { a brace in a comment
  x += 35; // { a brace in a comment
  x += 36; // { a brace in a comment
  x += 37; // { a brace in a comment
  x += 38; // { a brace in a comment
  x += 39; // { a brace in a comment
  x += 40; // { a brace in a comment
  x += 41; // { a brace in a comment
  x += 42; // { a brace in a comment
  x += 43; // { a brace in a comment
  x += 44; // { a brace in a comment
  x += 45; // { a brace in a comment
  x += 46; // { a brace in a comment
  x += 47; // { a brace in a comment
  x += 48; // { a brace in a comment
  x += 49; // { a brace in a comment
  x += 50; // { a brace in a comment
  x += 51; // { a brace in a comment
  x += 52; // { a brace in a comment
  x += 53; // { a brace in a comment
  x += 54; // { a brace in a comment
  x += 55; // { a brace in a comment
  x += 56; // { a brace in a comment
  x += 57; // { a brace in a comment
  x += 58; // { a brace in a comment
  x += 59; // { a brace in a comment
  x += 60; // { a brace in a comment
  x += 61; // { a brace in a comment
  x += 62; // { a brace in a comment
  x += 63; // { a brace in a comment
  x += 64; // { a brace in a comment
  x += 65; // { a brace in a comment
  x += 66; // { a brace in a comment
  x += 67; // { a brace in a comment
  x += 68; // { a brace in a comment
  x += 69; // { a brace in a comment
  x += 70; // { a brace in a comment
  x += 71; // { a brace in a comment
  x += 72; // { a brace in a comment
  x += 73; // { a brace in a comment
  x += 74; // { a brace in a comment
  x += 75; // { a brace in a comment
  x += 76; // { a brace in a comment
  x += 77; // { a brace in a comment
  x += 78; // { a brace in a comment
  x += 79; // { a brace in a comment
  x += 80; // { a brace in a comment
  x += 81; // { a brace in a comment
  x += 82; // { a brace in a comment
  x += 83; // { a brace in a comment
  x += 84; // { a brace in a comment
  x += 85; // { a brace in a comment
  x += 86; // { a brace in a comment
  x += 87; // { a brace in a comment
  x += 88; // { a brace in a comment
  x += 89; // { a brace in a comment
  x += 90; // { a brace in a comment
  x += 91; // { a brace in a comment
  x += 92; // { a brace in a comment
  x += 93; // { a brace in a comment
  x += 94; // { a brace in a comment
  x += 95; // { a brace in a comment
  x += 96; // { a brace in a comment
  x += 97; // { a brace in a comment
  x += 98; // { a brace in a comment
  x += 99; // { a brace in a comment
  x += 100; // { a brace in a comment
  x += 101; // { a brace in a comment
  x += 102; // { a brace in a comment
  x += 103; // { a brace in a comment
  x += 104; // { a brace in a comment
  x += 105; // { a brace in a comment
  x += 106; // { a brace in a comment
  x += 107; // { a brace in a comment
  x += 108; // { a brace in a comment
  x += 109; // { a brace in a comment
  x += 110; // { a brace in a comment
  x += 111; // { a brace in a comment
  x += 112; // { a brace in a comment
  x += 113; // { a brace in a comment
  x += 114; // { a brace in a comment
  x += 115; // { a brace in a comment
  x += 116; // { a brace in a comment
  x += 117; // { a brace in a comment
  x += 118; // { a brace in a comment
  x += 119; // { a brace in a comment
  x += 120; // { a brace in a comment
  x += 121; // { a brace in a comment
  x += 122; // { a brace in a comment
  x += 123; // { a brace in a comment
  x += 124; // { a brace in a comment
  x += 125; // { a brace in a comment
  x += 126; // { a brace in a comment
  x += 127; // { a brace in a comment
}

// 120 lines: not longer than the limit.
int justLongEnough(int x) {
  x += 0;
  x += 1;
  x += 2;
  x += 3;
  x += 4;
  x += 5;
  x += 6;
  x += 7;
  x += 8;
  x += 9;
  x += 10;
  x += 11;
  x += 12;
  x += 13;
  x += 14;
  x += 15;
  x += 16;
  x += 17;
  x += 18;
  x += 19;
  x += 20;
  x += 21;
  x += 22;
  x += 23;
  x += 24;
  x += 25;
  x += 26;
  x += 27;
  x += 28;
  x += 29;
  x += 30;
  x += 31;
  x += 32;
  x += 33;
  x += 34;
  x += 35;
  x += 36;
  x += 37;
  x += 38;
  x += 39;
  x += 40;
  x += 41;
  x += 42;
  x += 43;
  x += 44;
  x += 45;
  x += 46;
  x += 47;
  x += 48;
  x += 49;
  x += 50;
  x += 51;
  x += 52;
  x += 53;
  x += 54;
  x += 55;
  x += 56;
  x += 57;
  x += 58;
  const char *s = "}}}"; // braces in a string
  char c = '}';
  std::string r = R"x(
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
  } } } a raw string's braces
)x";
  x += 4;
  x += 5;
  x += 6;
  x += 7;
  x += 8;
  x += 9;
  x += 10;
  x += 11;
  x += 12;
  x += 13;
  x += 14;
  x += 15;
  x += 16;
  x += 17;
  x += 18;
  x += 19;
  x += 20;
  x += 21;
  x += 22;
  x += 23;
  x += 24;
  x += 25;
  /* a comment's
     } brace */
  return x + c + s[0] + r.size();
}

// A table, not a function.
const int table[] = {
    0,
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
    12,
    13,
    14,
    15,
    16,
    17,
    18,
    19,
    20,
    21,
    22,
    23,
    24,
    25,
    26,
    27,
    28,
    29,
    30,
    31,
    32,
    33,
    34,
    35,
    36,
    37,
    38,
    39,
    40,
    41,
    42,
    43,
    44,
    45,
    46,
    47,
    48,
    49,
    50,
    51,
    52,
    53,
    54,
    55,
    56,
    57,
    58,
    59,
    60,
    61,
    62,
    63,
    64,
    65,
    66,
    67,
    68,
    69,
    70,
    71,
    72,
    73,
    74,
    75,
    76,
    77,
    78,
    79,
    80,
    81,
    82,
    83,
    84,
    85,
    86,
    87,
    88,
    89,
    90,
    91,
    92,
    93,
    94,
    95,
    96,
    97,
    98,
    99,
    100,
    101,
    102,
    103,
    104,
    105,
    106,
    107,
    108,
    109,
    110,
    111,
    112,
    113,
    114,
    115,
    116,
    117,
    118,
    119,
    120,
    121,
    122,
    123,
    124,
    125,
    126,
    127,
    128,
    129,
};

struct Builder {
  Builder(int a) : a(a), b{a} {}
  // An inline method: 125 lines.
  int build() const {
    auto step = [&](int i) {
      a += i * 0;
      a += i * 1;
      a += i * 2;
      a += i * 3;
      a += i * 4;
      a += i * 5;
      a += i * 6;
      a += i * 7;
      a += i * 8;
      a += i * 9;
      a += i * 10;
      a += i * 11;
      a += i * 12;
      a += i * 13;
      a += i * 14;
      a += i * 15;
      a += i * 16;
      a += i * 17;
      a += i * 18;
      a += i * 19;
      a += i * 20;
      a += i * 21;
      a += i * 22;
      a += i * 23;
      a += i * 24;
      a += i * 25;
      a += i * 26;
      a += i * 27;
      a += i * 28;
      a += i * 29;
      a += i * 30;
      a += i * 31;
      a += i * 32;
      a += i * 33;
      a += i * 34;
      a += i * 35;
      a += i * 36;
      a += i * 37;
      a += i * 38;
      a += i * 39;
      a += i * 40;
      a += i * 41;
      a += i * 42;
      a += i * 43;
      a += i * 44;
      a += i * 45;
      a += i * 46;
      a += i * 47;
      a += i * 48;
      a += i * 49;
      a += i * 50;
      a += i * 51;
      a += i * 52;
      a += i * 53;
      a += i * 54;
      a += i * 55;
      a += i * 56;
      a += i * 57;
      a += i * 58;
      a += i * 59;
      a += i * 60;
      a += i * 61;
      a += i * 62;
      a += i * 63;
      a += i * 64;
      a += i * 65;
      a += i * 66;
      a += i * 67;
      a += i * 68;
      a += i * 69;
      a += i * 70;
      a += i * 71;
      a += i * 72;
      a += i * 73;
      a += i * 74;
      a += i * 75;
      a += i * 76;
      a += i * 77;
      a += i * 78;
      a += i * 79;
      a += i * 80;
      a += i * 81;
      a += i * 82;
      a += i * 83;
      a += i * 84;
      a += i * 85;
      a += i * 86;
      a += i * 87;
      a += i * 88;
      a += i * 89;
      a += i * 90;
      a += i * 91;
      a += i * 92;
      a += i * 93;
      a += i * 94;
      a += i * 95;
      a += i * 96;
      a += i * 97;
      a += i * 98;
      a += i * 99;
      a += i * 100;
      a += i * 101;
      a += i * 102;
      a += i * 103;
      a += i * 104;
      a += i * 105;
      a += i * 106;
      a += i * 107;
      a += i * 108;
      a += i * 109;
      a += i * 110;
      a += i * 111;
      a += i * 112;
      a += i * 113;
      a += i * 114;
      a += i * 115;
      a += i * 116;
      a += i * 117;
      a += i * 118;
      a += i * 119;
    };
    return a;
  }
  int a, b;
};

// A lambda at namespace scope is not a function definition.
auto lambda = [](int x) {
  x += 0;
  x += 1;
  x += 2;
  x += 3;
  x += 4;
  x += 5;
  x += 6;
  x += 7;
  x += 8;
  x += 9;
  x += 10;
  x += 11;
  x += 12;
  x += 13;
  x += 14;
  x += 15;
  x += 16;
  x += 17;
  x += 18;
  x += 19;
  x += 20;
  x += 21;
  x += 22;
  x += 23;
  x += 24;
  x += 25;
  x += 26;
  x += 27;
  x += 28;
  x += 29;
  x += 30;
  x += 31;
  x += 32;
  x += 33;
  x += 34;
  x += 35;
  x += 36;
  x += 37;
  x += 38;
  x += 39;
  x += 40;
  x += 41;
  x += 42;
  x += 43;
  x += 44;
  x += 45;
  x += 46;
  x += 47;
  x += 48;
  x += 49;
  x += 50;
  x += 51;
  x += 52;
  x += 53;
  x += 54;
  x += 55;
  x += 56;
  x += 57;
  x += 58;
  x += 59;
  x += 60;
  x += 61;
  x += 62;
  x += 63;
  x += 64;
  x += 65;
  x += 66;
  x += 67;
  x += 68;
  x += 69;
  x += 70;
  x += 71;
  x += 72;
  x += 73;
  x += 74;
  x += 75;
  x += 76;
  x += 77;
  x += 78;
  x += 79;
  x += 80;
  x += 81;
  x += 82;
  x += 83;
  x += 84;
  x += 85;
  x += 86;
  x += 87;
  x += 88;
  x += 89;
  x += 90;
  x += 91;
  x += 92;
  x += 93;
  x += 94;
  x += 95;
  x += 96;
  x += 97;
  x += 98;
  x += 99;
  x += 100;
  x += 101;
  x += 102;
  x += 103;
  x += 104;
  x += 105;
  x += 106;
  x += 107;
  x += 108;
  x += 109;
  x += 110;
  x += 111;
  x += 112;
  x += 113;
  x += 114;
  x += 115;
  x += 116;
  x += 117;
  x += 118;
  x += 119;
  x += 120;
  x += 121;
  x += 122;
  x += 123;
  x += 124;
  x += 125;
  x += 126;
  x += 127;
  x += 128;
  x += 129;
  return x;
};

} // namespace demo
