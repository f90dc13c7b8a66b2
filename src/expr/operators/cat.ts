// `cat`: the arguments joined as strings (null and absent as "", as Array.join does in JSONLogic).
import { eager } from "../operator.js";

export const cat = eager((values) => values.join(""));
