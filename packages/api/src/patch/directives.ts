/** The keys and values a strategic merge patch uses to say more than "set this value". */
export const directiveMarker = '$patch';
export const deleteDirective = 'delete';
export const replaceDirective = 'replace';
export const mergeDirective = 'merge';

export const retainKeysStrategy = 'retainKeys';
export const retainKeysDirective = '$retainKeys';
export const deleteFromPrimitiveListDirectivePrefix = '$deleteFromPrimitiveList';
export const setElementOrderDirectivePrefix = '$setElementOrder';
