#include "codegen/constant_homes.h"

namespace simplec {

int constantHome(const Schedule& s, int useBlock, int conBlock) {
  int floor = s.blocks[size_t(conBlock)].domDepth;
  int best = useBlock;
  for (int up = s.blocks[size_t(best)].shallowerDom; up >= 0 && s.blocks[size_t(up)].domDepth >= floor;
       up = s.blocks[size_t(best)].shallowerDom)
    best = up;
  return best;
}

}  // namespace simplec
