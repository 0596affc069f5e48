#ifndef _ROCM_VERSION_H_
#define _ROCM_VERSION_H_

#ifdef __cplusplus
extern "C" {
#endif  /* __cplusplus */

#define LIB_API_PUBLIC __attribute__ ((visibility ("default")))

#define ROCM_VERSION_MAJOR   6
#define ROCM_VERSION_MINOR   0
#define ROCM_VERSION_PATCH   2
#define ROCM_BUILD_INFO	     "6.0.2.60002-115-115-5b2c1b6"

typedef enum {
	VerSuccess=0,
	VerIncorrecPararmeters,
	VerValuesNotDefined,
	VerErrorMAX		//This should always be last value in the enumerations
} VerErrors;

LIB_API_PUBLIC VerErrors getROCmVersion(unsigned int* Major, unsigned int* Minor, unsigned int* Patch) ;

#ifdef __cplusplus
}  // end extern "C" block
#endif

#endif  //_ROCM_VERSION_H_
