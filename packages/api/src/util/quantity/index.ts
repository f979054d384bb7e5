export { Quantity, newMilliQuantity, newQuantity, newScaledQuantity } from './quantity';
export type { QuantityFormat } from './format';
export {
  parseQuantity,
  QUANTITY_FORMAT_ERROR,
  QUANTITY_NUMERIC_ERROR,
  QUANTITY_SUFFIX_ERROR,
  QuantityError,
  tryParseQuantity,
} from './parse';
